// The typed v3 client: one function per operation of the spec, every response validated
// against the shared wire schemas. Usable without the CLI.
import type { z } from 'zod';
import type { Connection } from '../config/credentials.js';
import { requireKey } from '../config/credentials.js';
import { ResponseShapeError } from './errors.js';
import { BackoffGate } from './retry.js';
import * as S from './schemas/v3.js';
import { Transport, type RawResponse, type RequestSpec } from './transport.js';

export interface ClientHooks {
  debug?: (line: string) => void;
  signal?: AbortSignal;
  gate?: BackoffGate;
}

type IdLike = string | number;
const seg = (id: IdLike) => encodeURIComponent(String(id));
/** Ids travel as JSON numbers; the CLI keeps them as strings so 64-bit values are not rounded. */
const num = (id: IdLike) => (typeof id === 'number' ? id : Number(id));

export function createV3Client(conn: Connection, hooks: ClientHooks = {}) {
  const transport = new Transport({
    baseUrl: conn.baseUrl,
    apiKey: requireKey(conn),
    authHeader: 'X-API-KEY',
    timeoutMs: conn.timeoutMs,
    maxAttempts: conn.maxAttempts,
    debug: hooks.debug,
    signal: hooks.signal,
    gate: hooks.gate,
  });

  async function call<T extends z.ZodType>(schema: T, spec: RequestSpec): Promise<z.infer<T>> {
    const { data, request } = await transport.json(spec);
    const parsed = schema.safeParse(data);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ResponseShapeError(
        `unexpected response to ${spec.method} ${spec.path}: ${issue?.path.join('.') || 'body'} ${issue?.message ?? ''}`.trim(),
        request,
      );
    }
    return parsed.data;
  }

  return {
    transport,
    /** 1. GET /v3/tests */
    listTests: (q: { pageNo?: number; pageSize?: number } = {}) =>
      call(S.TestsListResponse, { operation: 'v3.listTests', method: 'GET', path: '/v3/tests', query: q, idempotent: true }),
    /** 2. GET /v3/tests/{testId} */
    getTest: (testId: IdLike) =>
      call(S.TestDetail, { operation: 'v3.getTest', method: 'GET', path: `/v3/tests/${seg(testId)}`, idempotent: true }),
    /** 3. POST /v3/tests/{testId}/invite — idempotent per candidate in the spec. */
    invite: (testId: IdLike, body: Record<string, unknown>) =>
      call(S.InviteResponse, { operation: 'v3.invite', method: 'POST', path: `/v3/tests/${seg(testId)}/invite`, body, idempotent: true }),
    /** 4. GET /v3/reports/{testInvitationId}?reportType= */
    getReport: (invitationId: IdLike, reportType: 1 | 2 | 3 = 1) =>
      call(S.Report, {
        operation: 'v3.getReport',
        method: 'GET',
        path: `/v3/reports/${seg(invitationId)}`,
        query: { reportType },
        idempotent: true,
      }),
    /** 5. GET /v3/reports/{testInvitationId}/pdf — the raw response, body streamed by the caller. */
    getReportPdf: (invitationId: IdLike): Promise<RawResponse> =>
      transport.send({ operation: 'v3.getReportPdf', method: 'GET', path: `/v3/reports/${seg(invitationId)}/pdf`, idempotent: true }),
    /** 6. GET /v3/tests/{testId}/testlinks */
    listLinks: (testId: IdLike) =>
      call(S.TestLinksResponse, { operation: 'v3.listLinks', method: 'GET', path: `/v3/tests/${seg(testId)}/testlinks`, idempotent: true }),
    /** 7. GET /v3/tests/{testId}/testlinks/{testLinkId} */
    getLink: (testId: IdLike, linkId: IdLike) =>
      call(S.TestLink, {
        operation: 'v3.getLink',
        method: 'GET',
        path: `/v3/tests/${seg(testId)}/testlinks/${seg(linkId)}`,
        idempotent: true,
      }),
    /** 8. POST /v3/invitations/{id}/cancel — cancelling twice leaves it cancelled, so safe to repeat. */
    cancel: (invitationId: IdLike) =>
      call(S.CancelResponse, {
        operation: 'v3.cancel',
        method: 'POST',
        path: `/v3/invitations/${seg(invitationId)}/cancel`,
        body: {},
        idempotent: true,
      }),
    /** 9. POST /v3/invitations/{id}/reattempt — the spec returns the latest active reattempt on repeat. */
    reattempt: (invitationId: IdLike, body: Record<string, unknown>) =>
      call(S.ReattemptResponse, {
        operation: 'v3.reattempt',
        method: 'POST',
        path: `/v3/invitations/${seg(invitationId)}/reattempt`,
        body,
        idempotent: true,
      }),
    /** 10. POST /v3/tests/{testId}/testlinks/{testLinkId}/invite */
    inviteByLink: (testId: IdLike, linkId: IdLike, body: Record<string, unknown>) =>
      call(S.InviteByLinkResponse, {
        operation: 'v3.inviteByLink',
        method: 'POST',
        path: `/v3/tests/${seg(testId)}/testlinks/${seg(linkId)}/invite`,
        body,
        idempotent: true,
      }),
    /** 11. POST /v3/tests/{testId}/testlinks — not safe to repeat (would create two links). */
    createLink: (testId: IdLike, body: Record<string, unknown>) =>
      call(S.TestLink, {
        operation: 'v3.createLink',
        method: 'POST',
        path: `/v3/tests/${seg(testId)}/testlinks`,
        body: { testId: num(testId), ...body },
        idempotent: false,
      }),
    /** 12. POST /v3/tests/{testId}/testlinks/{testLinkId} */
    updateLink: (testId: IdLike, linkId: IdLike, body: Record<string, unknown>) =>
      call(S.TestLink, {
        operation: 'v3.updateLink',
        method: 'POST',
        path: `/v3/tests/${seg(testId)}/testlinks/${seg(linkId)}`,
        body,
        idempotent: false,
      }),
    /** 13. GET /v3/tests/{testId}/settings */
    getSettings: (testId: IdLike) =>
      call(S.TestSettingsResponse, { operation: 'v3.getSettings', method: 'GET', path: `/v3/tests/${seg(testId)}/settings`, idempotent: true }),
    /** 14. POST /v3/tests/{testId}/settings — full replace. */
    updateSettings: (testId: IdLike, body: Record<string, unknown>) =>
      call(S.TestSettingsResponse, {
        operation: 'v3.updateSettings',
        method: 'POST',
        path: `/v3/tests/${seg(testId)}/settings`,
        body,
        idempotent: false,
      }),
    /** 15. POST /v3/candidates/testattempts?state= — a read, so safe to repeat. */
    listAttempts: (state: 'completed' | 'cancelled' | 'expired', startDateTime: string, endDateTime: string) =>
      call(S.ListAttemptsResponse, {
        operation: 'v3.listAttempts',
        method: 'POST',
        path: '/v3/candidates/testattempts',
        query: { state },
        body: { StartDateTime: startDateTime, EndDateTime: endDateTime },
        idempotent: true,
      }),
    /** 16. POST /v3/callbacks/process — at most 100 ids; re-queuing twice is harmless. */
    processCallbacks: (ids: IdLike[]) =>
      call(S.ProcessCallbacksResponse, {
        operation: 'v3.processCallbacks',
        method: 'POST',
        path: '/v3/callbacks/process',
        body: { testinvitationIds: ids.map(num) },
        idempotent: true,
      }),
  };
}

export type V3Client = ReturnType<typeof createV3Client>;
