// The deprecated v2 client (header x-api-key, envelope {statuscode, description, result}): one
// function per v2 operation, each answer's `result` read with the tolerant policy (src/api/read/). The transport (retries, timeouts, redaction) is shared with v3.
import type * as z from 'zod/mini';
import type { Connection } from '../config/credentials.js';
import { ApiError } from './errors.js';
import { allOf, anObject, anyOf, listOf, someList } from './read/identify.js';
import { readAnswer, type Identify, type ReadOptions } from './read/read.js';
import * as R from './read/v2.js';
import type { RawResponse, RequestSpec } from './transport.js';
import { clientTransport, type ClientHooks } from './client-transport.js';

type IdLike = string | number;
const seg = (id: IdLike) => encodeURIComponent(String(id));

const REGISTERED = {
  means: 'the candidate may have been registered, but the answer has no invitation id or URL',
  check: 'registering again updates the same record (one per candidate and test) and returns it',
};

export function createV2Client(conn: Connection, hooks: ClientHooks = {}) {
  const { transport, warnOnce } = clientTransport(conn, hooks, 'v2');

  /**
   * Reads the envelope `{statuscode, description, result}` (a body without one is read as the
   * result itself), then the result with the tolerant policy (src/api/read/).
   */
  async function call<T extends z.core.$ZodType>(
    result: T,
    spec: RequestSpec,
    identify: Identify,
    write?: Pick<ReadOptions, 'expect' | 'known' | 'empty'>,
  ): Promise<z.output<T>> {
    const answer = await transport.json(spec);
    const env = answer.empty ? undefined : R.V2Envelope.safeParse(answer.data);
    let inner: unknown = answer.data;
    if (env?.success && 'result' in env.data) {
      const { statuscode, description } = env.data;
      // A 200 carrying an error statuscode (e.g. "400.1") is an error, whatever the HTTP status.
      if (statuscode !== undefined && !/^2/.test(statuscode.trim()))
        throw new ApiError(
          parseInt(statuscode, 10) || answer.status,
          { shape: 'v2', statuscode, description: description ?? '' },
          answer.request,
        );
      inner = env.data.result;
    }
    return readAnswer(
      result,
      { ...answer, data: inner, raw: answer.data },
      { kind: write ? 'write' : 'read', envelope: false, warn: warnOnce, identify, ...write },
    );
  }

  const get = <T extends z.core.$ZodType>(
    operation: string,
    schema: T,
    identify: Identify,
    path: string,
    query?: RequestSpec['query'],
  ) => call(schema, { operation, method: 'GET', path, query, idempotent: true }, identify);

  return {
    transport,
    /** GET /v2/org/tests?page_size&page_no */
    listTests: (q: { pageNo?: number; pageSize?: number } = {}) =>
      get('v2.listTests', R.V2Tests, listOf('tests'), '/v2/org/tests', { page_no: q.pageNo, page_size: q.pageSize }),
    /** GET /v2/org/tests/{testId} */
    getTest: (testId: IdLike) =>
      get('v2.getTest', R.V2TestDetail, anyOf('testId', 'testName', 'sections'), `/v2/org/tests/${seg(testId)}`),
    /** POST /v2/org/tests/{testId}/register — posting again updates the same record, so safe to repeat. */
    register: (testId: IdLike, body: Record<string, unknown>) =>
      call(
        R.V2Registered,
        {
          operation: 'v2.register',
          method: 'POST',
          path: `/v2/org/tests/${seg(testId)}/register`,
          body,
          idempotent: true,
        },
        allOf('testInvitationId', 'takeTestURL'),
        { empty: REGISTERED },
      ),
    /** POST /v2/org/tests/{testId}/testlinks/{testLinkId}/register */
    registerByLink: (testId: IdLike, linkId: IdLike, body: Record<string, unknown>) =>
      call(
        R.V2LinkRegistered,
        {
          operation: 'v2.registerByLink',
          method: 'POST',
          path: `/v2/org/tests/${seg(testId)}/testlinks/${seg(linkId)}/register`,
          body,
          idempotent: true,
        },
        allOf('testInvitationId', 'testUrl'),
        { empty: REGISTERED },
      ),
    /** GET /v2/org/report/{testInvitationId} */
    getReport: (invitationId: IdLike) =>
      get(
        'v2.getReport',
        R.V2Report,
        anyOf('emailId', 'fullName', 'testStatus', 'reportStatus', 'score'),
        `/v2/org/report/${seg(invitationId)}`,
      ),
    /** GET /v2/org/report/{testInvitationId}/sections */
    getSectionReport: (invitationId: IdLike) =>
      get(
        'v2.getSectionReport',
        R.V2SectionReport,
        (result) => (result === null ? undefined : someList(result)), // a null result: no sections
        `/v2/org/report/${seg(invitationId)}/sections`,
      ),
    /** GET /v2/org/report/{testInvitationId}/pdf — the raw response, body streamed by the caller. */
    getReportPdf: (invitationId: IdLike): Promise<RawResponse> =>
      transport.send({
        operation: 'v2.getReportPdf',
        method: 'GET',
        path: `/v2/org/report/${seg(invitationId)}/pdf`,
        idempotent: true,
      }),
    /** GET /v2/org/tests/{testId}/testlinks */
    listLinks: (testId: IdLike) =>
      get('v2.listLinks', R.V2TestLinks, listOf('testLinks'), `/v2/org/tests/${seg(testId)}/testlinks`),
    /** GET /v2/org/tests/{testId}/testlinks/{testLinkId} */
    getLink: (testId: IdLike, linkId: IdLike) =>
      get('v2.getLink', R.V2TestLink, allOf('testLinkId'), `/v2/org/tests/${seg(testId)}/testlinks/${seg(linkId)}`),
    /** POST /v2/org/tests/{testId}/testlinks — not safe to repeat (would create two links). */
    createLink: (testId: IdLike, body: Record<string, unknown>) =>
      call(
        R.V2WrittenLink,
        {
          operation: 'v2.createLink',
          method: 'POST',
          path: `/v2/org/tests/${seg(testId)}/testlinks`,
          body,
          idempotent: false,
        },
        allOf('testLinkId'),
        {
          empty: {
            means: 'the link may have been created, but the answer does not name it',
            check: `check with \`assess links list ${testId} --api v2\` before creating it again`,
          },
        },
      ),
    /** POST /v2/org/tests/{testId}/testlinks/{testLinkId} */
    updateLink: (testId: IdLike, linkId: IdLike, body: Record<string, unknown>) =>
      call(
        R.V2WrittenLink,
        {
          operation: 'v2.updateLink',
          method: 'POST',
          path: `/v2/org/tests/${seg(testId)}/testlinks/${seg(linkId)}`,
          body,
          idempotent: false,
        },
        anObject,
        { known: { testLinkId: linkId }, empty: true },
      ),
  };
}

export type V2Client = ReturnType<typeof createV2Client>;
