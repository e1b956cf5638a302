// `--query EXPR`: a JMESPath expression applied to the JSON result of any command, after every
// page is combined (a listing is queried as one array, not page by page). JMESPath rather than a
// jq port: the maintained community implementation is pure TypeScript with no dependencies,
// while the npm jq ports are an emscripten build that calls itself a hack (jq-web) or an
// unfinished 0.0.1 (jqjs); the AWS CLI uses JMESPath the same way (docs/assumptions.md).
import { UsageError } from '../errors.js';

export interface Query {
  text: string;
  run(data: unknown): unknown;
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
