// The deprecated v2 client (header x-api-key, envelope {statuscode, description, result}): one
// function per operation of the table (src/api/operations/v2.ts), each a call of the one client
// (client.ts), which takes the envelope off. The transport (retries, timeouts, redaction) is
// shared with v3.
import type { Connection } from './connection.js';
import { serviceClient } from './client.js';
import type { ClientHooks } from './client-transport.js';
import type { BodyOf, CheckedBodyOf, IdLike } from './operations/index.js';
import type { RawResponse } from './transport.js';

export function createV2Client(conn: Connection, hooks: ClientHooks = {}) {
  const { transport, call, raw } = serviceClient(conn, hooks, 'v2');
  const link = (testId: IdLike, linkId: IdLike) => ({ testId, testLinkId: linkId });
  return {
    transport,
    listTests: (q: { pageNo?: number; pageSize?: number } = {}) =>
      call('v2.listTests', { query: { page_no: q.pageNo, page_size: q.pageSize } }),
    getTest: (testId: IdLike) => call('v2.getTest', { path: { testId } }),
    register: (testId: IdLike, body: BodyOf<'v2.register'>) => call('v2.register', { path: { testId }, body }),
    registerByLink: (testId: IdLike, linkId: IdLike, body: BodyOf<'v2.registerByLink'>) =>
      call('v2.registerByLink', { path: link(testId, linkId), body }),
    getReport: (invitationId: IdLike) => call('v2.getReport', { path: { testInvitationId: invitationId } }),
    getSectionReport: (invitationId: IdLike) =>
      call('v2.getSectionReport', { path: { testInvitationId: invitationId } }),
    /** The raw response: its body (the PDF) is streamed by the caller. */
    getReportPdf: (invitationId: IdLike): Promise<RawResponse> =>
      raw('v2.getReportPdf', { path: { testInvitationId: invitationId } }),
    listLinks: (testId: IdLike) => call('v2.listLinks', { path: { testId } }),
    getLink: (testId: IdLike, linkId: IdLike) => call('v2.getLink', { path: link(testId, linkId) }),
    createLink: (testId: IdLike, body: CheckedBodyOf<'v2.createLink'>) =>
      call('v2.createLink', { path: { testId }, body }),
    updateLink: (testId: IdLike, linkId: IdLike, body: CheckedBodyOf<'v2.updateLink'>) =>
      call('v2.updateLink', { path: link(testId, linkId), body }),
  };
}

export type V2Client = ReturnType<typeof createV2Client>;
