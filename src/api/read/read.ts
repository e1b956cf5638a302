// Reading one answer with the tolerant policy. The rules that decide success and failure live
// here, for every operation of both clients (the transport has already refused a 2xx body that
// is not JSON: an HTML page, another content type, a cut or undecodable body):
//   - 200, 201 and 204 are all success; a 2xx `{result: null, errors: [..]}` is the service
//     saying it failed (an ApiError, as the same body with a 4xx status would be);
//   - only the service's answer counts: an answer without what identifies the operation's (an
//     invitation without its id and URL, a listing without its list), or an empty one where the
//     operation must answer, is an UnexpectedAnswerError (exit 1), never a success;
//   - a write answered 2xx with its identifying content is a success whatever else its body
//     lacks: what is known (the id that was sent) is merged with what came back, and anything
//     unexpected is a warning on stderr, said once per operation and problem;
//   - a read with its identifying content that still cannot be read (a listing's row without its
//     id) is an UnreadableAnswerError carrying the body, which commands that only show print
//     instead of failing (src/cli/command.ts).
import * as z from 'zod/mini';
import { ApiError, ResponseShapeError, UnexpectedAnswerError, type RequestInfo } from '../errors.js';
import { baseUrlHint } from './answer-kind.js';
import { unwrapEnvelope } from './body.js';

export interface Answer {
  status: number;
  data: unknown;
  request: RequestInfo;
  /** No body at all (a 204, or 0 bytes). */
  empty?: boolean;
  /** The body as received, when `data` is a part of it (v2: the envelope's result). */
  raw?: unknown;
}

/** What is missing from a body for it to be the operation's answer (undefined: nothing is). */
export type Identify = (body: unknown) => string | undefined;

export interface ReadOptions {
  kind: 'read' | 'write';
  /** v3 bodies may come in a `{result, errors}` envelope; v2 has its own (see v2 client). */
  envelope: boolean;
  /** What identifies the operation's answer (identify.ts); without it, any JSON is. */
  identify?: Identify;
  /**
   * An empty body: `true`, a success (a cancel's 204); a text, a failure that says what may have
   * happened (an invite: the candidate may be invited, but there is no URL). Default: a failure.
   */
  empty?: true | { means: string; check: string };
  /** Writes: what the CLI knows without the answer (e.g. the id it sent), used where the answer is silent. */
  known?: Record<string, unknown>;
  /** Writes: fields the user expects to see; their absence is a warning, not a failure. */
  expect?: readonly string[];
  warn?: (message: string) => void;
}

/** A read answered 2xx with a body that cannot be understood; the CLI prints the body as received. */
export class UnreadableAnswerError extends ResponseShapeError {
  override name = 'UnreadableAnswerError';
  constructor(
    message: string,
    request: RequestInfo,
    readonly status: number,
    readonly body: unknown,
  ) {
    super(message, request);
  }
}

export function readAnswer<S extends z.core.$ZodType>(schema: S, answer: Answer, opts: ReadOptions): z.output<S> {
  const { status, request } = answer;
  let body = answer.data;
  if (answer.empty) {
    if (opts.empty === true) return readWrite(schema, answer, null, opts);
    throw notTheAnswer(answer, 'an empty body', opts.empty);
  }
  if (opts.envelope) {
    const env = unwrapEnvelope(body);
    if (env.kind === 'errors') throw new ApiError(status, { shape: 'resultErrors', errors: env.errors }, request);
    body = env.body;
  }
  const missing = opts.identify?.(body);
  if (missing !== undefined) throw notTheAnswer(answer, `JSON without ${missing}`);
  if (opts.kind === 'read') {
    const parsed = z.safeParse(schema, body);
    if (parsed.success) return parsed.data;
    throw new UnreadableAnswerError(
      `could not read the answer to ${what(request)}: ${firstIssue(parsed.error)}`,
      request,
      status,
      answer.raw ?? answer.data,
    );
  }
  return readWrite(schema, answer, body, opts);
}

/** The failure of a 2xx answer that is not the operation's: what came, and what may have happened. */
function notTheAnswer(answer: Answer, got: string, may?: { means: string; check: string }): UnexpectedAnswerError {
  const said = `${what(answer.request)} was answered HTTP ${answer.status} with ${got}`;
  if (may) return new UnexpectedAnswerError(`${said}: ${may.means}`, answer.request, may.check);
  return new UnexpectedAnswerError(`${said}, not the service's answer`, answer.request, baseUrlHint(answer.request));
}

function readWrite<S extends z.core.$ZodType>(
  schema: S,
  answer: Answer,
  body: unknown,
  opts: ReadOptions,
): z.output<S> {
  const warn = (problem: string) =>
    opts.warn?.(`the service accepted ${what(answer.request)} (HTTP ${answer.status}) but ${problem}`);
  let fields: Record<string, unknown>;
  if (body === null || body === undefined || body === '') fields = {};
  else if (typeof body === 'string') fields = { message: body };
  else if (typeof body === 'object' && !Array.isArray(body)) fields = body as Record<string, unknown>;
  else {
    warn(
      `answered ${Array.isArray(body) ? 'a list' : typeof body} where an object was expected; showing what is known`,
    );
    fields = {};
  }
  const parsed = z.safeParse(schema, fields);
  let value: Record<string, unknown>;
  if (parsed.success) value = parsed.data as Record<string, unknown>;
  else {
    warn(`its answer was unexpected (${firstIssue(parsed.error)}); showing it as received`);
    value = { ...fields };
  }
  for (const [k, v] of Object.entries(opts.known ?? {})) if (value[k] == null) value = { ...value, [k]: v };
  const missing = (opts.expect ?? []).filter((k) => value[k] == null);
  if (missing.length) warn(`its answer did not include ${missing.join(', ')}`);
  return value as z.output<S>;
}

function what(request: RequestInfo): string {
  let path = request.url;
  try {
    path = new URL(request.url).pathname;
  } catch {
    // keep the url as it is
  }
  return `${request.method} ${path}`;
}

function firstIssue(err: z.core.$ZodError): string {
  const issue = err.issues[0];
  if (!issue) return 'unexpected shape';
  return `${issue.path.join('.') || 'body'}: ${issue.message}`;
}

/** A client's warnings: each distinct line once (a bulk run meets the same oddity per row), key scrubbed. */
export function warnEachOnce(
  warn: ((line: string) => void) | undefined,
  scrub: (line: string) => string,
): (line: string) => void {
  const seen = new Set<string>();
  return (line) => {
    if (seen.has(line)) return;
    seen.add(line);
    warn?.(scrub(line));
  };
}
