// The typed v3 client: one function per operation of the spec. Every answer is read with the
// tolerant-reader policy (src/api/read/): an answer without what identifies the operation's is
// not the service's (UnexpectedAnswerError, exit 1); beyond that, reads must be understood (else
// UnreadableAnswerError, which the CLI prints as received) and writes answered 2xx succeed.
// Usable without the CLI.
import type * as z from 'zod/mini';
import type { Connection } from '../config/credentials.js';
import { confirmByReadBack } from './read-back.js';
import { allOf, anObject, anyOf, listOf, someList } from './read/identify.js';
import { readAnswer, type Identify, type ReadOptions } from './read/read.js';
import * as R from './read/v3.js';
import { sameStatus } from './read/policy.js';
import type { RawResponse, RequestSpec } from './transport.js';
import { clientTransport, type ClientHooks } from './client-transport.js';

export type { ClientHooks } from './client-transport.js';

type IdLike = string | number;
const seg = (id: IdLike) => encodeURIComponent(String(id));
/** Ids travel as JSON numbers when exact; longer ones as their digits (never rounded). */
const num = (id: IdLike) => {
  const n = typeof id === 'number' ? id : Number(id);
  return Number.isSafeInteger(n) ? n : String(id);
};

type WriteOptions = Pick<ReadOptions, 'known' | 'expect' | 'identify' | 'empty'>;
/** Per call: `onAnswered` (see RequestSpec) lets a bulk pool start its next request first. */
export type CallOptions = Pick<RequestSpec, 'onAnswered'>;

/** A report names its invitation, or at least says its status or its candidate. */
const REPORT = anyOf('testInvitationId', 'status', 'candidateEmail', 'candidateName', 'score');
const SETTINGS = anyOf(
  'testSettings',
  'questionSettings',
  'displayMessageSettings',
  'emailSettings',
  'imageProctoringSettings',
  'windowViolationSettings',
);

export function createV3Client(conn: Connection, hooks: ClientHooks = {}) {
  const { transport, warnOnce } = clientTransport(conn, hooks, 'v3');

  async function read<T extends z.core.$ZodType>(
    schema: T,
    spec: RequestSpec,
    identify: Identify,
  ): Promise<z.output<T>> {
    return readAnswer(schema, await transport.json(spec), { kind: 'read', envelope: true, identify });
  }
  async function write<T extends z.core.$ZodType>(
    schema: T,
    spec: RequestSpec,
    opts: WriteOptions = {},
  ): Promise<z.output<T>> {
    return readAnswer(schema, await transport.json(spec), { kind: 'write', envelope: true, warn: warnOnce, ...opts });
  }

  /**
   * A cancel whose first try may have been carried out (answer lost) is refused on the repeat
   * ("can not be cancelled"), or fails outright: the invitation's report says whether it is in fact
   * cancelled (read-back.ts).
   */
  const confirmCancelled = (invitationId: IdLike, err: unknown): Promise<R.Cancelled & { confirmed: true }> =>
    confirmByReadBack(err, {
      read: () => read(R.Report, reportSpec(invitationId, 1), REPORT),
      applied: (report) => sameStatus(report.status, 'Cancelled'),
      confirmed: (lost) =>
        warnOnce(
          `the answer to the cancel of ${invitationId} was lost (${lost}); read back, the report shows it cancelled (confirmed)`,
        ),
      check: `assess report ${invitationId} --json status`,
    }).then(() => ({ testInvitationId: num(invitationId), status: 'Cancelled', confirmed: true }));

  const reportSpec = (invitationId: IdLike, reportType: 1 | 2 | 3): RequestSpec => ({
    operation: 'v3.getReport',
    method: 'GET',
    path: `/v3/reports/${seg(invitationId)}`,
    query: { reportType },
    idempotent: true,
  });
  const INVITED: WriteOptions = {
    identify: allOf('testInvitationId', 'testUrl'),
    empty: {
      means: 'the candidate may have been invited, but the answer has no invitation id or URL',
      check:
        'the same invite again returns that invitation if it was made (one per candidate and test); ' +
        'sent with an e-mail, the repeat may e-mail the candidate again',
    },
  };

  return {
    transport,
    /** 1. GET /v3/tests */
    listTests: (q: { pageNo?: number; pageSize?: number } = {}) =>
      read(
        R.TestsList,
        { operation: 'v3.listTests', method: 'GET', path: '/v3/tests', query: q, idempotent: true },
        listOf('tests'),
      ),
    /** 2. GET /v3/tests/{testId} */
    getTest: (testId: IdLike) =>
      read(
        R.TestDetail,
        {
          operation: 'v3.getTest',
          method: 'GET',
          path: `/v3/tests/${seg(testId)}`,
          idempotent: true,
        },
        anyOf('testId', 'testName', 'sections'),
      ),
    /** 3. POST /v3/tests/{testId}/invite — idempotent per candidate in the spec. */
    invite: (testId: IdLike, body: Record<string, unknown>, call: CallOptions = {}) =>
      write(
        R.Invitation,
        {
          operation: 'v3.invite',
          method: 'POST',
          path: `/v3/tests/${seg(testId)}/invite`,
          body,
          idempotent: true,
          ...call,
        },
        INVITED,
      ),
    /** 4. GET /v3/reports/{testInvitationId}?reportType= */
    getReport: (invitationId: IdLike, reportType: 1 | 2 | 3 = 1, call: CallOptions = {}) =>
      read(R.Report, { ...reportSpec(invitationId, reportType), ...call }, REPORT),
    /** 5. GET /v3/reports/{testInvitationId}/pdf — the raw response, body streamed by the caller. */
    getReportPdf: (invitationId: IdLike): Promise<RawResponse> =>
      transport.send({
        operation: 'v3.getReportPdf',
        method: 'GET',
        path: `/v3/reports/${seg(invitationId)}/pdf`,
        idempotent: true,
      }),
    /** 6. GET /v3/tests/{testId}/testlinks */
    listLinks: (testId: IdLike) =>
      read(
        R.TestLinks,
        {
          operation: 'v3.listLinks',
          method: 'GET',
          path: `/v3/tests/${seg(testId)}/testlinks`,
          idempotent: true,
        },
        listOf('testLinks'),
      ),
    /** 7. GET /v3/tests/{testId}/testlinks/{testLinkId} */
    getLink: (testId: IdLike, linkId: IdLike) =>
      read(
        R.TestLink,
        {
          operation: 'v3.getLink',
          method: 'GET',
          path: `/v3/tests/${seg(testId)}/testlinks/${seg(linkId)}`,
          idempotent: true,
        },
        allOf('testLinkId'),
      ),
    /**
     * 8. POST /v3/invitations/{id}/cancel — repeated after a lost answer (the service refuses a
     * second cancel, so a refusal then is checked against the report; see confirmCancelled).
     */
    cancel: (invitationId: IdLike): Promise<R.Cancelled & { confirmed?: true }> =>
      write(
        R.Cancelled,
        {
          operation: 'v3.cancel',
          method: 'POST',
          path: `/v3/invitations/${seg(invitationId)}/cancel`,
          body: {},
          idempotent: true,
        },
        // A 2xx JSON answer (or none: 204) to a cancel means it is cancelled, whatever the body says.
        { known: { testInvitationId: num(invitationId), status: 'Cancelled' }, empty: true },
      ).catch((err: unknown) => confirmCancelled(invitationId, err)),
    /**
     * 9. POST /v3/invitations/{id}/reattempt — the spec returns the latest active reattempt on
     * repeat, so a lost answer (a 500 too) is repeated: the repeat returns what the lost try made.
     */
    reattempt: (invitationId: IdLike, body: Record<string, unknown>) =>
      write(
        R.Reattempt,
        {
          operation: 'v3.reattempt',
          method: 'POST',
          path: `/v3/invitations/${seg(invitationId)}/reattempt`,
          body,
          idempotent: true,
          sameOnRepeat: true,
        },
        {
          identify: INVITED.identify,
          empty: {
            means: 'the reattempt may have been made, but the answer has no invitation id or URL',
            check: 'the same reattempt again returns the one made, never a second',
          },
        },
      ),
    /** 10. POST /v3/tests/{testId}/testlinks/{testLinkId}/invite */
    inviteByLink: (testId: IdLike, linkId: IdLike, body: Record<string, unknown>, call: CallOptions = {}) =>
      write(
        R.Invitation,
        {
          operation: 'v3.inviteByLink',
          method: 'POST',
          path: `/v3/tests/${seg(testId)}/testlinks/${seg(linkId)}/invite`,
          body,
          idempotent: true,
          ...call,
        },
        INVITED,
      ),
    /** 11. POST /v3/tests/{testId}/testlinks — not safe to repeat (would create two links). */
    createLink: (testId: IdLike, body: Record<string, unknown>) =>
      write(
        R.WrittenLink,
        {
          operation: 'v3.createLink',
          method: 'POST',
          path: `/v3/tests/${seg(testId)}/testlinks`,
          body: { testId: num(testId), ...body },
          idempotent: false,
        },
        // without its id the new link cannot be named (the hint: check `links list`)
        {
          known: { testId: num(testId) },
          identify: allOf('testLinkId'),
          empty: {
            means: 'the link may have been created, but the answer does not name it',
            check: `check with \`assess links list ${testId}\` before creating it again`,
          },
        },
      ),
    /** 12. POST /v3/tests/{testId}/testlinks/{testLinkId} */
    updateLink: (testId: IdLike, linkId: IdLike, body: Record<string, unknown>) =>
      write(
        R.WrittenLink,
        {
          operation: 'v3.updateLink',
          method: 'POST',
          path: `/v3/tests/${seg(testId)}/testlinks/${seg(linkId)}`,
          body,
          idempotent: false,
        },
        { known: { testId: num(testId), testLinkId: num(linkId) }, identify: anObject, empty: true },
      ),
    /** 13. GET /v3/tests/{testId}/settings */
    getSettings: (testId: IdLike) =>
      read(
        R.Settings,
        {
          operation: 'v3.getSettings',
          method: 'GET',
          path: `/v3/tests/${seg(testId)}/settings`,
          idempotent: true,
        },
        SETTINGS,
      ),
    /** 14. POST /v3/tests/{testId}/settings — full replace. */
    updateSettings: (testId: IdLike, body: Record<string, unknown>) =>
      write(
        R.Settings,
        {
          operation: 'v3.updateSettings',
          method: 'POST',
          path: `/v3/tests/${seg(testId)}/settings`,
          body,
          idempotent: false,
        },
        // the settings object, or (204, `{}`) nothing: what was sent is then what is stored
        { identify: anObject, empty: true, known: body },
      ),
    /** 15. POST /v3/candidates/testattempts?state= — a read, so safe to repeat. */
    listAttempts: (state: 'completed' | 'cancelled' | 'expired', startDateTime: string, endDateTime: string) =>
      read(
        R.TestAttempts,
        {
          operation: 'v3.listAttempts',
          method: 'POST',
          path: '/v3/candidates/testattempts',
          query: { state },
          body: { StartDateTime: startDateTime, EndDateTime: endDateTime },
          idempotent: true,
          readOnly: true,
        },
        listOf('testAttempts'),
      ),
    /** The vendor's "List timezones" (not in the spec; path chosen, see docs/assumptions.md). */
    listTimeZones: () =>
      read(
        R.TimeZones,
        { operation: 'v3.listTimeZones', method: 'GET', path: '/v3/timezones', idempotent: true },
        (body) => listOf('timeZones')(body) && someList(body), // `{timeZones: null}`: none
      ),
    /**
     * 16. POST /v3/callbacks/process — at most 100 ids; re-queuing twice is harmless. "A 200
     * response means the invitations are queued": an answer (JSON, or none) that does not list the
     * ids leaves them unknown to the caller (not failed).
     */
    processCallbacks: (ids: IdLike[]) =>
      write(
        R.ProcessedCallbacks,
        {
          operation: 'v3.processCallbacks',
          method: 'POST',
          path: '/v3/callbacks/process',
          body: { testinvitationIds: ids.map(num) },
          idempotent: true,
        },
        { expect: ['testinvitationIds'], empty: true },
      ),
  };
}

export type V3Client = ReturnType<typeof createV3Client>;
