// `--query EXPR`: a JMESPath expression applied to the JSON result of any command, after every
// page is combined (a listing is queried as one array, not page by page). JMESPath rather than a
// jq port: the maintained community implementation is pure TypeScript with no dependencies,
// while the npm jq ports are an emscripten build that calls itself a hack (jq-web) or an
// unfinished 0.0.1 (jqjs); the AWS CLI uses JMESPath the same way (docs/assumptions.md).
import { UsageError } from '../errors.js';

export interface Query {
  text: string;
  run(data: unknown): unknown;
  /** The field names the expression reads (`Field` nodes), for the unknown-field warning. */
  fields?: readonly string[];
}

/** Compiles the expression (before anything is sent): a syntax error is exit 2. */
export async function compileQuery(text: string): Promise<Query> {
  const { compile, TreeInterpreter } = await import('@jmespath-community/jmespath');
  let ast: ReturnType<typeof compile>;
  try {
    ast = compile(text);
  } catch (err) {
    throw new UsageError(
      `--query: ${(err as Error).message} (in ${JSON.stringify(text)})`,
      'a JMESPath expression, e.g. --query "[].testId" or --query "[?testStatus==\'Active\'].testName"',
    );
  }
  return {
    text,
    fields: fieldNames(ast),
    run: (data) => {
      try {
        return TreeInterpreter.search(ast, data as never);
      } catch (err) {
        throw new UsageError(`--query: ${(err as Error).message}`);
      }
    },
  };
}

/** Prints a query result: JSON, or one line per element with --ndjson. */
export function renderQueryResult(result: unknown, ndjson: boolean): string {
  if (ndjson && Array.isArray(result)) return result.map((r) => `${JSON.stringify(r)}\n`).join('');
  return `${JSON.stringify(result ?? null, null, ndjson ? undefined : 2)}\n`;
}

/** Every `Field` name in a compiled expression (KeyValuePair names are output keys, not fields). */
function fieldNames(ast: unknown): string[] {
  const out = new Set<string>();
  const walk = (n: unknown) => {
    if (Array.isArray(n)) return n.forEach(walk);
    if (!n || typeof n !== 'object') return;
    const node = n as Record<string, unknown>;
    if (node.type === 'Field' && typeof node.name === 'string') out.add(node.name);
    for (const v of Object.values(node)) if (v && typeof v === 'object') walk(v);
  };
  walk(ast);
  return [...out];
}

/** Every key of the objects in `data`, to a few levels (what a query can name). */
function keysOf(data: unknown, into = new Set<string>(), depth = 0): Set<string> {
  if (depth > 4) return into;
  if (Array.isArray(data)) {
    for (const x of data.slice(0, 200)) keysOf(x, into, depth + 1);
  } else if (data && typeof data === 'object') {
    for (const [k, v] of Object.entries(data)) {
      into.add(k);
      if (v && typeof v === 'object') keysOf(v, into, depth + 1);
    }
  }
  return into;
}

/** Edit distance (insertions, deletions, substitutions), case-insensitive. */
function distance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const cur = [i];
    for (let j = 1; j <= y.length; j++)
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x[i - 1] === y[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[y.length];
}

/** The field a person most likely meant: a table heading's field, a field containing the name, else the nearest. */
export function closestField(
  name: string,
  keys: readonly string[],
  headings: ReadonlyMap<string, string> = new Map(),
): string | undefined {
  const low = name.toLowerCase();
  const byHeading = headings.get(low);
  if (byHeading && keys.includes(byHeading)) return byHeading;
  const containing = keys.filter((k) => k.toLowerCase().includes(low) || low.includes(k.toLowerCase()));
  const pool = containing.length ? containing : keys;
  let best: string | undefined;
  let bestD = Infinity;
  for (const k of pool) {
    const d = distance(name, k);
    if (d < bestD) [best, bestD] = [k, d];
  }
  return containing.length || bestD <= Math.max(2, name.length / 2) ? best : undefined;
}

/**
 * `--query` naming a field the output does not have (`status` where the field is `testStatus`)
 * quietly selects nothing: one warning line naming it and the closest field. `headings` maps a
 * table heading (lower case) to its field, so `Status` finds `testStatus`.
 */
export function unknownFieldWarning(
  query: Query,
  data: unknown,
  headings?: ReadonlyMap<string, string>,
): string | undefined {
  if (!query.fields?.length) return undefined;
  const keys = keysOf(data);
  if (!keys.size) return undefined; // nothing to compare with (an empty list)
  const missing = query.fields.filter((f) => !keys.has(f));
  if (!missing.length) return undefined;
  const parts = missing.map((f) => {
    const near = closestField(f, [...keys], headings);
    return near ? `'${f}' (did you mean '${near}'?)` : `'${f}'`;
  });
  return `--query: no field ${parts.join(', ')} in this output; --help lists the fields with their headings`;
}
