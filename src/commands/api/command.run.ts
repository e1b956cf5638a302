// `assess api METHOD PATH`: one authenticated request made from the connection like every client's;
// a 2xx body is streamed to stdout, held in memory only to be queried, pretty-printed or quoted.
import { pipeline } from 'node:stream/promises';
import { decodedBody, DEFAULT_MAX_ANSWER_BYTES, readAnswerBytes } from '../../api/answer-cap.js';
import { ApiError, NetworkError, parseErrorBody, ResponseShapeError } from '../../api/errors.js';
import type { RawResponse } from '../../api/transport-spec.js';
import type { Run } from '../../cli/command.js';
import { type Context, debugSink } from '../../context.js';
import { UsageError } from '../../errors.js';
import { escapeJson } from '../../output/escape.js';
import { renderQueryResult } from '../../output/query.js';
import { INPUT_MAX_BYTES, readInputText } from '../../util/small-file.js';
import { RAISE_MAX_SIZE } from '../shared/max-size.js';
import type api from './command.js';

export const run: Run<typeof api> = async (ctx, input) => {
  const body = input.data === undefined ? undefined : await readBody(ctx, input.data);
  const conn = await ctx.connection();
  // made from the connection as every client is (its guard included); undici loads only when sending
  const { clientTransport } = await import('../../api/client-transport.js');
  const { transport } = clientTransport(
    conn,
    { debug: debugSink(ctx), pool: ctx.keepAlive, signal: ctx.signal, secrets: ctx.secrets },
    input.v2 ? 'v2' : 'v3',
  );
  const res = await transport.send({
    operation: input.v2 ? 'v2.api' : 'v3.api', // the API version it went out under (the base URL and header of --v2)
    method: input.method,
    // the query goes as typed: a parameter given twice (?a=1&a=2) keeps both values, in order
    path: input.path,
    body,
    repeat: input.method === 'GET' ? 'read' : 'once',
  });
  const limit = input.maxSize ?? conn.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES;
  const type = String(res.headers['content-type'] ?? '');
  const ok = res.status >= 200 && res.status <= 299;
  // held in memory only to be queried, pretty-printed or quoted in an error; else streamed
  if (ok && !ctx.globals.query && !(ctx.io.stdoutIsTTY && /json/i.test(type)))
    return stream(ctx, res, limit, TEXT.test(type));
  const bytes = await readAnswerBytes(res, limit, { raise: RAISE_MAX_SIZE }).catch((err: unknown) => {
    throw brokeOff(ctx, input.method, res, err);
  });
  // A server that echoes the key back must not make us print it.
  const text = () => transport.scrub(bytes.toString('utf8'));
  // scrubbed like stdout: the error line (and --debug's ApiError) must not carry an echoed key
  const refused = ok ? undefined : new ApiError(res.status, parseErrorBody(text()), res.request, res.attempts);
  // JSON on a terminal: pretty, with what JSON.stringify leaves raw (C1, bidi) escaped
  const tty = (json: string) => (ctx.io.stdoutIsTTY ? escapeJson(json) : json);
  const { query: jmespath } = ctx.globals;
  if (jmespath) {
    // whatever the content type says: a JSON body is queried, any other is not printed
    // (--query prints JSON), and a refusal says so first
    const parsed = jsonOrUndefined(text());
    if (parsed === undefined)
      throw refused ?? notJson(input.method, res.status, type, text(), bytes.length, res.request);
    ctx.io.stdout.write(tty(renderQueryResult(jmespath.run(parsed), ctx.globals.output === 'ndjson')));
  } else if (TEXT.test(type)) {
    ctx.io.stdout.write(ctx.io.stdoutIsTTY && /json/.test(type) ? tty(prettyJson(text())) : text());
  } else {
    ctx.io.stdout.write(bytes);
  }
  if (refused) throw refused;
};

/** Text the scrubber reads as it streams (a key echoed in it is masked); anything else passes as bytes. */
const TEXT = /json|text\/|xml|javascript|csv|x-www-form-urlencoded/i;

/** A 2xx body onto stdout as it arrives, decoded, within --max-size: never held whole in memory. */
async function stream(ctx: Context, res: RawResponse, limit: number, text: boolean): Promise<void> {
  const body = decodedBody(res, limit, { raise: RAISE_MAX_SIZE });
  const out = { signal: ctx.signal, end: false };
  await (text ? pipeline(body, ctx.secrets.stream(), ctx.io.stdout, out) : pipeline(body, ctx.io.stdout, out)).catch(
    (err: unknown) => {
      throw brokeOff(ctx, res.request.method, res, err);
    },
  );
}

/**
 * A failure while reading the answer, in our terms: cut off after the headers is a network failure (exit 6), not a bug.
 */
function brokeOff(ctx: Context, method: string, res: RawResponse, err: unknown): unknown {
  const e = err as NodeJS.ErrnoException;
  if (ctx.signal.aborted || err instanceof ResponseShapeError || err instanceof NetworkError || e.syscall) return err;
  return new NetworkError(
    `${method} ${res.request.url}: the answer broke off (${e.code ?? e.message})`,
    res.request,
    e.code,
    res.attempts,
  );
}

async function readBody(ctx: Context, data: string): Promise<unknown> {
  const text =
    data === '-' || data.startsWith('@')
      ? await readInputText(data === '-' ? '-' : data.slice(1), {
          label: '--data',
          maxBytes: INPUT_MAX_BYTES,
          stdin: ctx.io.stdin,
          signal: ctx.signal,
        })
      : data;
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UsageError(
      `--data: not valid JSON (${(err as Error).message})`,
      `e.g. --data '{"email":"ann@example.com"}' or --data @body.json`,
    );
  }
}

function jsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * A 2xx whose body --query cannot read: the service answered, so it says what came (exit 1, as other unexpected
 * answers).
 */
function notJson(
  method: string,
  status: number,
  type: string,
  text: string,
  size: number,
  request: ResponseShapeError['request'],
): ResponseShapeError {
  const start = text.trim().slice(0, 60);
  // text is quoted (its start), anything else (a PDF) is only measured
  const seen = /json|text|xml|html/i.test(type) || !type ? `it starts ${JSON.stringify(start)}` : `${size} bytes`;
  const what = !start ? 'an empty body' : `a body that is not JSON (${type || 'no content type'}; ${seen})`;
  return new ResponseShapeError(
    `${method} ${new URL(request.url).pathname} was answered HTTP ${status} with ${what}, so --query cannot apply`,
    request,
    method === 'GET'
      ? 'drop --query to see the body as it came'
      : `drop --query to see such bodies as they come (the ${method} was carried out: sending it again repeats it)`,
  );
}

function prettyJson(text: string): string {
  try {
    return `${JSON.stringify(JSON.parse(text), null, 2)}\n`;
  } catch {
    return text;
  }
}
