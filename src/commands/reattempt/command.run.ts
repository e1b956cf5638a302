// reattempt: the invitation opened again in a new access window, or a new invitation once the
// previous attempt was taken; recorded in the ledger like an invite, and said which it was.
import type { BodyOf } from '../../api/operations/index.js';
import { ApiError } from '../../api/errors.js';
import type { Run } from '../../cli/command.js';
import { Printer } from '../../output/printer.js';
import { resolveTz } from '../shared/timezone.js';
import { noteEmbeddedUrls } from '../shared/live-sandbox.js';
import { sendRecorded, viaOf, withLedger } from '../shared/record-invite.js';
import { emailNotice } from '../shared/email-notice.js';
import { closedInvitations, reopenedNotice } from '../shared/reopened.js';
import type reattempt from './command.js';
import { REATTEMPT_COLUMNS, type ReattemptInput } from './command.js';

/** The body, PascalCase as in the spec (hideInstruction and sendEmail are camelCase there). */
export function reattemptBody(v: ReattemptInput): BodyOf<'v3.reattempt'> {
  // a --tz name is resolved by the command before the body is built (shared/timezone.ts)
  if (typeof v.tz !== 'number') throw new Error(`unresolved time zone '${String(v.tz)}'`);
  const body: BodyOf<'v3.reattempt'> = { StartDateTime: v.start, EndDateTime: v.end, TimeZoneId: v.tz };
  if (v.callbackUrl) body.CallbackUrl = v.callbackUrl;
  if (v.redirectUrl) body.RedirectUrl = v.redirectUrl;
  if (v.hideInstructions) body.hideInstruction = 1;
  body.sendEmail = v.sendEmail ? 'yes' : 'no';
  return body;
}

export const run: Run<typeof reattempt> = async (ctx, input) => {
  const client = await ctx.api();
  // a time zone name that names none is a usage error: found before anything else is asked
  const tz = (await resolveTz(ctx, input.tz))!;
  const body = reattemptBody({ ...input, start: input.start!, end: input.end!, tz });
  // asked before the reattempt: the answer for a reopened invitation reads like one open all along
  const closed = await closedInvitations(ctx, client, undefined);
  const attempt = {
    via: viaOf(ctx, 'reattempt'),
    api: 'v3' as const,
    reattemptOf: input.invitationId,
    sendEmail: body.sendEmail === 'yes',
    callbackUrl: input.callbackUrl,
  };
  let res;
  try {
    // the ledger is opened before anything is sent: a store that cannot be written stops here
    res = await withLedger(ctx, (ledger) =>
      sendRecorded(
        ledger,
        attempt,
        () => client.reattempt(input.invitationId, body, { emails: input.sendEmail === true }),
        (r) => ({
          outcome: String(r.testInvitationId) === input.invitationId ? 'existing' : 'invited',
          invitationId: r.testInvitationId == null ? undefined : String(r.testInvitationId),
          testUrl: r.testUrl ?? undefined,
        }),
      ),
    );
  } catch (err) {
    throw explainRefusal(err, input.invitationId);
  }
  const newId = String(res.testInvitationId);
  const emailed = input.sendEmail === true;
  const reopened = reopenedNotice(closed, newId, 'the reattempt');
  if (reopened) ctx.warn(reopened);
  if (!reopened || newId !== input.invitationId) ctx.info(reattemptNotice(input.invitationId, newId));
  await new Printer(ctx).object({ ...res, emailed }, { fields: REATTEMPT_COLUMNS });
  ctx.info(emailNotice(emailed));
  await noteEmbeddedUrls(ctx);
};

/**
 * What the answer says happened: another id is the candidate's new invitation, with the new
 * access window (one an earlier reattempt made and nobody took yet is the one returned: the
 * candidate has one open reattempt at a time); the same id was not taken, so it is open again.
 */
export function reattemptNotice(given: string, returned: string): string {
  return returned !== given
    ? `Invitation ${returned} is the reattempt, open in the new access window; invitation ${given} keeps its result.`
    : `Invitation ${given} was not taken yet: it is open again in the new access window (no new invitation).`;
}

/** The 400 `{statusCode, message}` answer (e.g. "in progress") keeps exit 1 with a clearer message. */
function explainRefusal(err: unknown, id: string): unknown {
  if (!(err instanceof ApiError) || err.status !== 400 || err.body.shape !== 'statusMessage') return err;
  const said = err.body.message;
  const why = /in progress/i.test(said)
    ? `reattempt refused: invitation ${id} (or its latest reattempt) is In Progress; run this again once the ` +
      `candidate has finished the test`
    : `reattempt refused for invitation ${id}`;
  return new ApiError(
    400,
    { shape: 'statusMessage', statusCode: 400, message: `${why} (service: ${said})` },
    err.request,
    err.attempts,
  );
}
