// The typed v3 client: one function per operation of the table (src/api/operations/v3.ts), each
// a call of the one client (client.ts) with the operation's parameters. What is particular to an
// operation beyond its row is here: a cancel whose answer was lost is read back. Usable without
// the CLI.
import type { Connection } from './connection.js';
import { serviceClient, num, type CallOptions, type EmailingCall, type Request } from './client.js';
import type { ClientHooks } from './client-transport.js';
import type { AnswerOf, BodyOf, CheckedBodyOf, IdLike, OperationId } from './operations/index.js';
import { sameStatus } from './read/policy.js';
import { confirmByReadBack } from './read-back.js';
import type { RawResponse } from './transport.js';

export type { ClientHooks } from './client-transport.js';
export type { CallOptions, EmailingCall } from './client.js';

type Cancelled = AnswerOf<'v3.cancel'> & { confirmed?: true };

export function createV3Client(conn: Connection, hooks: ClientHooks = {}) {
  const { transport, warnOnce, call, raw } = serviceClient(conn, hooks, 'v3');
  const getReport = (invitationId: IdLike, reportType: 1 | 2 | 3 = 1, opts: CallOptions = {}) =>
    call('v3.getReport', { path: { testInvitationId: invitationId }, query: { reportType }, call: opts });

  const confirmCancelled = cancelConfirmer(getReport, warnOnce);

  return {
    transport,
    /** Any v3 operation of the table, typed from its row; the functions below name the common ones. */
    call: <I extends Extract<OperationId, `v3.${string}`>>(id: I, req: Request<I>) => call(id, req),
    listTests: (query: { pageNo?: number; pageSize?: number } = {}) => call('v3.listTests', { query }),
    getTest: (testId: IdLike) => call('v3.getTest', { path: { testId } }),
    invite: (testId: IdLike, body: BodyOf<'v3.invite'>, opts: EmailingCall) =>
      call('v3.invite', { path: { testId }, body, call: opts }),
    getReport,
    /** The raw response: its body (the PDF) is streamed by the caller. */
    getReportPdf: (invitationId: IdLike): Promise<RawResponse> =>
      raw('v3.getReportPdf', { path: { testInvitationId: invitationId } }),
    listLinks: (testId: IdLike) => call('v3.listLinks', { path: { testId } }),
    getLink: (testId: IdLike, linkId: IdLike) => call('v3.getLink', { path: { testId, testLinkId: linkId } }),
    cancel: (invitationId: IdLike): Promise<Cancelled> =>
      call('v3.cancel', { path: { testInvitationId: invitationId }, body: {} }).catch((err: unknown) =>
        confirmCancelled(invitationId, err),
      ),
    reattempt: (invitationId: IdLike, body: BodyOf<'v3.reattempt'>, opts: EmailingCall) =>
      call('v3.reattempt', { path: { testInvitationId: invitationId }, body, call: opts }),
    inviteByLink: (testId: IdLike, linkId: IdLike, body: BodyOf<'v3.inviteByLink'>, opts: EmailingCall) =>
      call('v3.inviteByLink', { path: { testId, testLinkId: linkId }, body, call: opts }),
    /** The body names its test too (the spec's sample does). */
    createLink: (testId: IdLike, body: CheckedBodyOf<'v3.createLink'>) =>
      call('v3.createLink', { path: { testId }, body: { testId: num(testId), ...body } }),
    updateLink: (testId: IdLike, linkId: IdLike, body: CheckedBodyOf<'v3.updateLink'>) =>
      call('v3.updateLink', { path: { testId, testLinkId: linkId }, body }),
    getSettings: (testId: IdLike) => call('v3.getSettings', { path: { testId } }),
    /** A full replace: the whole settings object. */
    updateSettings: (testId: IdLike, body: CheckedBodyOf<'v3.updateSettings'>) =>
      call('v3.updateSettings', { path: { testId }, body }),
    listAttempts: (state: 'completed' | 'cancelled' | 'expired', startDateTime: string, endDateTime: string) =>
      call('v3.listAttempts', { query: { state }, body: { StartDateTime: startDateTime, EndDateTime: endDateTime } }),
    listTimeZones: () => call('v3.listTimeZones', {}),
    /** At most 100 ids a call. */
    processCallbacks: (ids: IdLike[]) =>
      call('v3.processCallbacks', { body: { testinvitationIds: ids.map(num) as number[] } }),
  };
}

export type V3Client = ReturnType<typeof createV3Client>;

/**
 * A cancel whose first try may have been carried out (answer lost) is refused on the repeat
 * ("can not be cancelled"), or fails outright: the invitation's report says whether it is in fact
 * cancelled (read-back.ts).
 */
function cancelConfirmer(
  getReport: (invitationId: IdLike) => Promise<AnswerOf<'v3.getReport'>>,
  warnOnce: (line: string) => void,
) {
  return (invitationId: IdLike, err: unknown): Promise<Cancelled> =>
    confirmByReadBack(err, {
      read: () => getReport(invitationId),
      applied: (report) => sameStatus(report.status, 'Cancelled'),
      confirmed: (lost) =>
        warnOnce(
          `the answer to the cancel of ${invitationId} was lost (${lost}); ` +
            `read back, the report shows it cancelled (confirmed)`,
        ),
      check: `assess report ${invitationId} --json status`,
    }).then(() => ({ testInvitationId: num(invitationId), status: 'Cancelled', confirmed: true }));
}
