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
  const walk = new Walk(text);
  try {
    walk.document();
    return { lines: walk.lines };
  } catch (err) {
    if (!(err instanceof Stop)) throw err;
    const line = walk.lineAt(err.at);
    const column = err.at - (line > 1 ? walk.breaks[line - 2]! : -1);
    return { lines: walk.lines, error: { line, column, problem: err.problem } };
  }
}

/** One walk over the text: the position reached, the line breaks, and the line of each property seen. */
class Walk {
  readonly lines = new Map<string, number>();
  readonly breaks: number[] = [];
  private i = 0;

  constructor(private readonly text: string) {
    for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) this.breaks.push(at);
  }

  lineAt(at: number): number {
    let [lo, hi] = [0, this.breaks.length];
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.breaks[mid]! < at) lo = mid + 1;
      else hi = mid;
    }
    return lo + 1;
  }

  /** One JSON value and nothing after it but white space. */
  document(): void {
    this.value('', 0);
    this.space();
    if (this.i < this.text.length) this.fail('more text after the end of the JSON value');
  }

  private fail(problem: string): never {
    throw new Stop(this.i, this.i >= this.text.length ? 'the text ends too early' : problem);
  }

  private space(): void {
    while (this.i < this.text.length && ' \t\n\r'.includes(this.text[this.i]!)) this.i++;
  }

  private string(): string {
    const text = this.text;
    const start = ++this.i;
    for (; this.i < text.length && text[this.i] !== '"'; this.i++) {
      if (text.charCodeAt(this.i) < 0x20) this.fail('a control character in a string');
      if (text[this.i] !== '\\') continue;
      ESCAPE.lastIndex = ++this.i;
      if (!ESCAPE.test(text)) this.fail('an invalid escape in a string');
      this.i = ESCAPE.lastIndex - 1;
    }
    if (this.i >= text.length) this.fail('a string that is not closed');
    return JSON.parse(text.slice(start - 1, ++this.i)) as string;
  }

  private value(path: string, depth: number): void {
    this.space();
    const c = this.text[this.i];
    if (depth > MAX_DEPTH && (c === '{' || c === '[')) this.fail('nested too deep');
    if (c === '{') return this.object(path, depth + 1);
    if (c === '[') return this.items(']', () => this.value(path, depth + 1));
    if (c === '"') return void this.string();
    LITERAL.lastIndex = this.i;
    if (!LITERAL.test(this.text)) this.fail('a value expected (a string, number, object, array, true, false or null)');
    this.i = LITERAL.lastIndex;
  }

  private items(close: string, item: () => void): void {
    this.i++;
    this.space();
    if (this.text[this.i] === close) return void this.i++;
    for (;;) {
      item();
      this.space();
      if (this.text[this.i] === close) return void this.i++;
      if (this.text[this.i] !== ',') this.fail(`',' or '${close}' expected`);
      this.i++;
    }
  }

  private object(path: string, depth: number): void {
    this.items('}', () => {
      this.space();
      if (this.text[this.i] !== '"') this.fail('a property name in double quotes expected');
      const line = this.lineAt(this.i);
      const key = `${path}${path ? '.' : ''}${this.string()}`;
      this.lines.set(key, line);
      this.space();
      if (this.text[this.i] !== ':') this.fail("':' expected after a property name");
      this.i++;
      this.value(key, depth);
    });
  }
}
