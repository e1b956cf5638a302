// The deprecated v2 client (header x-api-key, envelope {statuscode, description, result}): one
// function per v2 operation, each answer validated with the shared v2 wire schemas and unwrapped
// to its `result`. The transport (retries, timeouts, redaction) is shared with v3.
import type { z } from 'zod';
import type { Connection } from '../config/credentials.js';
import { requireKey } from '../config/credentials.js';
import { ApiError, ResponseShapeError } from './errors.js';
import * as S from './schemas/v2.js';
import { Transport, type RawResponse, type RequestSpec } from './transport.js';
import type { ClientHooks } from './v3.js';

type IdLike = string | number;
const seg = (id: IdLike) => encodeURIComponent(String(id));

export function createV2Client(conn: Connection, hooks: ClientHooks = {}) {
  const transport = new Transport({
    baseUrl: conn.baseUrlV2,
    apiKey: requireKey(conn),
    authHeader: 'x-api-key',
    timeoutMs: conn.timeoutMs,
    maxAttempts: conn.maxAttempts,
    debug: hooks.debug,
    signal: hooks.signal,
    gate: hooks.gate,
  });

  async function call<T extends z.ZodType>(result: T, spec: RequestSpec): Promise<z.infer<T>> {
    const { status, data, request } = await transport.json(spec);
    const parsed = S.envelope(result).safeParse(data);
    if (!parsed.success) {
      // A 200 carrying an error statuscode (e.g. "400.1") is an error, whatever the HTTP status.
      const o = data as { statuscode?: unknown; description?: unknown } | null;
      if (o && typeof o === 'object' && o.statuscode !== undefined && !String(o.statuscode).startsWith('2'))
        throw new ApiError(parseInt(String(o.statuscode), 10) || status, { shape: 'v2', statuscode: String(o.statuscode), description: String(o.description ?? '') }, request);
      const issue = parsed.error.issues[0];
      throw new ResponseShapeError(
        `unexpected response to ${spec.method} ${spec.path}: ${issue?.path.join('.') || 'body'} ${issue?.message ?? ''}`.trim(),
        request,
      );
    }
    return parsed.data.result as z.infer<T>;
  }

  const get = <T extends z.ZodType>(operation: string, schema: T, path: string, query?: RequestSpec['query']) =>
    call(schema, { operation, method: 'GET', path, query, idempotent: true });

  return {
    transport,
    /** GET /v2/org/tests?page_size&page_no */
    listTests: (q: { pageNo?: number; pageSize?: number } = {}) =>
      get('v2.listTests', S.V2TestsResult, '/v2/org/tests', { page_no: q.pageNo, page_size: q.pageSize }),
    /** GET /v2/org/tests/{testId} */
    getTest: (testId: IdLike) => get('v2.getTest', S.V2TestDetail, `/v2/org/tests/${seg(testId)}`),
    /** POST /v2/org/tests/{testId}/register — posting again updates the same record, so safe to repeat. */
    register: (testId: IdLike, body: Record<string, unknown>) =>
      call(S.V2RegisterResult, { operation: 'v2.register', method: 'POST', path: `/v2/org/tests/${seg(testId)}/register`, body, idempotent: true }),
    /** POST /v2/org/tests/{testId}/testlinks/{testLinkId}/register */
    registerByLink: (testId: IdLike, linkId: IdLike, body: Record<string, unknown>) =>
      call(S.V2LinkRegisterResult, {
        operation: 'v2.registerByLink',
        method: 'POST',
        path: `/v2/org/tests/${seg(testId)}/testlinks/${seg(linkId)}/register`,
        body,
        idempotent: true,
      }),
    /** GET /v2/org/report/{testInvitationId} */
    getReport: (invitationId: IdLike) => get('v2.getReport', S.V2Report, `/v2/org/report/${seg(invitationId)}`),
    /** GET /v2/org/report/{testInvitationId}/sections */
    getSectionReport: (invitationId: IdLike) => get('v2.getSectionReport', S.V2SectionReport, `/v2/org/report/${seg(invitationId)}/sections`),
    /** GET /v2/org/report/{testInvitationId}/pdf — the raw response, body streamed by the caller. */
    getReportPdf: (invitationId: IdLike): Promise<RawResponse> =>
      transport.send({ operation: 'v2.getReportPdf', method: 'GET', path: `/v2/org/report/${seg(invitationId)}/pdf`, idempotent: true }),
    /** GET /v2/org/tests/{testId}/testlinks */
    listLinks: (testId: IdLike) => get('v2.listLinks', S.V2TestLinksResult, `/v2/org/tests/${seg(testId)}/testlinks`),
    /** GET /v2/org/tests/{testId}/testlinks/{testLinkId} */
    getLink: (testId: IdLike, linkId: IdLike) => get('v2.getLink', S.V2TestLink, `/v2/org/tests/${seg(testId)}/testlinks/${seg(linkId)}`),
    /** POST /v2/org/tests/{testId}/testlinks — not safe to repeat (would create two links). */
    createLink: (testId: IdLike, body: Record<string, unknown>) =>
      call(S.V2TestLink, { operation: 'v2.createLink', method: 'POST', path: `/v2/org/tests/${seg(testId)}/testlinks`, body, idempotent: false }),
    /** POST /v2/org/tests/{testId}/testlinks/{testLinkId} */
    updateLink: (testId: IdLike, linkId: IdLike, body: Record<string, unknown>) =>
      call(S.V2TestLink, {
        operation: 'v2.updateLink',
        method: 'POST',
        path: `/v2/org/tests/${seg(testId)}/testlinks/${seg(linkId)}`,
        body,
        idempotent: false,
      }),
  };
}

export type V2Client = ReturnType<typeof createV2Client>;
