// One client for both APIs, built from the operation table (src/api/operations/): a call names
// its operation and gives its path parameters, query and body; the row gives the method, the
// path, the repeat class and how the answer is read with the tolerant-reader policy
// (src/api/read/read.ts says when an answer is the service's, and what a write's answer needs).
import type { Connection } from './connection.js';
import { clientTransport, type ClientHooks } from './client-transport.js';
import { ApiError } from './errors.js';
import {
  OPERATIONS,
  pathOf,
  type AnswerOf,
  type AnswerRow,
  type BodyOf,
  type CheckedBodyOf,
  type IdLike,
  type OperationId,
  type OperationRow,
  type PathParams,
} from './operations/index.js';
import { readerOf } from './read/catalog.js';
import { identifyOf } from './read/identify.js';
import { readAnswer, type Answer, type ReadOptions } from './read/read.js';
import type { JsonAnswer, RawResponse, RequestSpec } from './transport.js';

/** Per call: `onAnswered` (see RequestSpec) lets a bulk pool start its next request first. */
export type CallOptions = Pick<RequestSpec, 'onAnswered'>;
/** A call of an operation that can e-mail the candidate says whether this one does. */
export type EmailingCall = CallOptions & { emails: boolean };

type Row<I extends OperationId> = (typeof OPERATIONS)[I];
type Params<I extends OperationId> = keyof PathParams<I> extends never ? { path?: undefined } : { path: PathParams<I> };

export type Request<I extends OperationId> = Params<I> & {
  query?: RequestSpec['query'];
  body?: BodyOf<I> | CheckedBodyOf<I>;
  call?: Row<I> extends { mayEmail: true } ? EmailingCall : CallOptions;
};

/** Ids travel as JSON numbers when exact; longer ones as their digits (never rounded). */
export const num = (id: IdLike): IdLike => {
  const n = typeof id === 'number' ? id : Number(id);
  return Number.isSafeInteger(n) ? n : String(id);
};

export function serviceClient(conn: Connection, hooks: ClientHooks, api: 'v3' | 'v2') {
  const { transport, warnOnce } = clientTransport(conn, hooks, api);

  const specOf = <I extends OperationId>(id: I, req: Request<I>): RequestSpec => {
    const row: OperationRow = OPERATIONS[id];
    const params: Record<string, IdLike> = req.path ?? {};
    return {
      operation: id,
      method: row.method,
      path: pathOf(id, params),
      query: req.query,
      body: req.body,
      repeat: row.repeat,
      ...req.call,
    };
  };

  /** Sends the operation and reads its answer. */
  async function call<I extends OperationId>(id: I, req: Request<I>): Promise<AnswerOf<I>> {
    const row: OperationRow = OPERATIONS[id];
    const json = await transport.json(specOf(id, req));
    const answer = api === 'v2' ? await v2Result(json) : json;
    const read = await readerOf(row.answer.read!);
    return readAnswer(read, answer, readOptions(row, req, api === 'v3', warnOnce)) as AnswerOf<I>;
  }

  /** Sends the operation and gives back the raw response (a PDF, streamed by the caller). */
  const raw = <I extends OperationId>(id: I, req: Request<I>): Promise<RawResponse> => transport.send(specOf(id, req));

  return { transport, warnOnce, call, raw };
}

function readOptions<I extends OperationId>(
  row: OperationRow,
  req: Request<I>,
  envelope: boolean,
  warn: (line: string) => void,
): ReadOptions {
  const a: AnswerRow = row.answer;
  const params: Record<string, IdLike> = req.path ?? {};
  return {
    kind: row.repeat === 'read' ? 'read' : 'write',
    envelope,
    warn,
    identify: identifyOf(a.identify),
    empty:
      a.empty === undefined || a.empty === true
        ? a.empty
        : { means: a.empty.means, check: filled(a.empty.check, params) },
    known: a.known && {
      ...Object.fromEntries((a.known.path ?? []).map((k) => [k, num(params[k]!)])),
      ...a.known.fields,
      ...(a.known.body && typeof req.body === 'object' ? req.body : {}),
    },
    expect: a.expect,
  };
}

const filled = (text: string, params: Record<string, IdLike>) =>
  text.replace(/\{(\w+)\}/g, (m, name: string) => (params[name] === undefined ? m : String(params[name])));

/**
 * A v2 answer's `result`, from its envelope `{statuscode, description, result}` (a body without
 * one is read as the result itself). A 200 carrying an error statuscode ("400.1") is an error,
 * whatever the HTTP status.
 */
async function v2Result(answer: JsonAnswer): Promise<Answer> {
  const { V2Envelope } = await import('./read/v2.js');
  const env = answer.empty ? undefined : V2Envelope.safeParse(answer.data);
  if (!env?.success || !('result' in env.data)) return answer;
  const { statuscode, description } = env.data;
  if (statuscode !== undefined && !/^2/.test(statuscode.trim()))
    throw new ApiError(
      parseInt(statuscode, 10) || answer.status,
      { shape: 'v2', statuscode, description: description ?? '' },
      answer.request,
    );
  return { ...answer, data: env.data.result, raw: answer.data };
}
