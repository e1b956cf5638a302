// Where things are in a JSON text, for errors about a file that name a line instead of quoting it
// (a file named by mistake may be a key file: its content must not reach any message). JSON.parse
// still does the parsing; this walks the same grammar only to find the line of each property and
// of the first syntax error, whose V8 message quotes the text around it.

export interface JsonPlaces {
  /** The line (from 1) of each property, by its dotted path (`questionSettings.randomQuestions`). */
  lines: Map<string, number>;
  /** The first syntax error: where, and what was expected, in our words. */
  error?: { line: number; column: number; problem: string };
}

class Stop {
  constructor(
    readonly at: number,
    readonly problem: string,
  ) {}
}

const LITERAL = /true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
/** Deeper than this is not walked (recursion); a settings file is three levels deep. */
const MAX_DEPTH = 200;
const ESCAPE = /["\\/bfnrt]|u[0-9a-fA-F]{4}/y;

export function jsonPlaces(text: string): JsonPlaces {
  const lines = new Map<string, number>();
  let i = 0;
  const breaks: number[] = [];
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) breaks.push(at);
  const lineAt = (at: number) => {
    let [lo, hi] = [0, breaks.length];
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (breaks[mid]! < at) lo = mid + 1;
      else hi = mid;
    }
    return lo + 1;
  };
  const fail = (problem: string): never => {
    throw new Stop(i, i >= text.length ? 'the text ends too early' : problem);
  };
  const space = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const string = (): string => {
    const start = ++i;
    for (; i < text.length && text[i] !== '"'; i++) {
      if (text.charCodeAt(i) < 0x20) fail('a control character in a string');
      if (text[i] !== '\\') continue;
      ESCAPE.lastIndex = ++i;
      if (!ESCAPE.test(text)) fail('an invalid escape in a string');
      i = ESCAPE.lastIndex - 1;
    }
    if (i >= text.length) fail('a string that is not closed');
    return JSON.parse(text.slice(start - 1, ++i)) as string;
  };
  const value = (path: string, depth: number): void => {
    space();
    const c = text[i];
    if (depth > MAX_DEPTH && (c === '{' || c === '[')) fail('nested too deep');
    if (c === '{' || c === '[') return void (c === '{' ? object(path, depth + 1) : array(path, depth + 1));
    if (c === '"') return void string();
    LITERAL.lastIndex = i;
    if (!LITERAL.test(text)) fail('a value expected (a string, number, object, array, true, false or null)');
    i = LITERAL.lastIndex;
  };
  const items = (close: string, item: () => void) => {
    i++;
    space();
    if (text[i] === close) return void i++;
    for (;;) {
      item();
      space();
      if (text[i] === close) return void i++;
      if (text[i] !== ',') fail(`',' or '${close}' expected`);
      i++;
    }
  };
  const object = (path: string, depth: number) =>
    items('}', () => {
      space();
      if (text[i] !== '"') fail('a property name in double quotes expected');
      const line = lineAt(i);
      const key = `${path}${path ? '.' : ''}${string()}`;
      lines.set(key, line);
      space();
      if (text[i] !== ':') fail("':' expected after a property name");
      i++;
      value(key, depth);
    });
  const array = (path: string, depth: number) => items(']', () => value(path, depth));
  try {
    value('', 0);
    space();
    if (i < text.length) fail('more text after the end of the JSON value');
    return { lines };
  } catch (err) {
    if (!(err instanceof Stop)) throw err;
    const line = lineAt(err.at);
    const column = err.at - (line > 1 ? breaks[line - 2]! : -1);
    return { lines, error: { line, column, problem: err.problem } };
  }
}
