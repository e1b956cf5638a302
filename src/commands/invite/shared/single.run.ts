// invite, one candidate: the invitation sent and recorded in the ledger (an earlier e-mail whose
// outcome is unknown is not sent again unless asked for), then printed with what the answer means.
import type { Run } from '../../../cli/command.js';
import type { Context } from '../../../context.js';
import { Printer } from '../../../output/printer.js';
import { resolveTz } from '../../shared/timezone.js';
import { classifyReturned, inviteBody, invitationSettled, type InviteInput } from './body.js';
import type { V3Client } from '../../../api/v3.js';
import type { Ledger } from '../../shared/ledger.js';
import type single from './single.js';
import { INVITATION_COLUMNS } from './single.js';
import { inviteV2 } from './v2.js';
import { noteEmbeddedUrls } from '../../shared/live-sandbox.js';
import { inviteAttempt, sendRecorded, withLedger } from '../../shared/record-invite.js';
import { emailAgain, withheldNotice } from '../../shared/second-email.js';
import { emailNotice } from '../../shared/email-notice.js';
import { closedInvitations, reopenedNotice } from '../../shared/reopened.js';

export const run: Run<typeof single> = async (ctx, input) => {
  const client = await ctx.api();
  const body = inviteBody({ ...input, tz: await resolveTz(ctx, input.tz) });
  // opened before anything is sent: a store that cannot be written stops here
  await withLedger(ctx, (ledger) => inviteOne(ctx, ledger, client, input, body));
};

export const runV2: Run<typeof single> = inviteV2;

async function inviteOne(
  ctx: Context,
  ledger: Ledger,
  client: V3Client,
  input: InviteInput,
  body: Record<string, unknown>,
): Promise<void> {
  // an earlier e-mail to this candidate whose outcome is unknown: no second one unless asked for
  const earlier =
    body.sendEmail === 'yes' && input.email
      ? ledger.store.read(() => ledger.uncertainEmail(input.testId, input.link, input.email!))
      : undefined;
  const withheld = earlier !== undefined && !(await emailAgain(ctx, earlier));
  if (withheld) body.sendEmail = 'no';
  const attempt = inviteAttempt(ctx, input, { api: 'v3', sendEmail: body.sendEmail === 'yes', withheld });
  // asked first: the answer for a reopened invitation reads like a new one
  const closed = input.email
    ? await closedInvitations(ctx, client, input.testId, new Set([input.email.toLowerCase()]))
    : new Map<string, string>();
  const res = await sendRecorded(
    ledger,
    attempt,
    // the service e-mails the candidate when asked to: then a lost answer is not sent again
    () =>
      input.link
        ? client.inviteByLink(input.testId, input.link, body, { emails: attempt.sendEmail })
        : client.invite(input.testId, body, { emails: attempt.sendEmail }),
    invitationSettled,
  );
  const id = String(res.testInvitationId);
  if (withheld) withheldNotice(ctx, earlier, id, res.status);
  else explainReturned(ctx, res.status, id);
  const reopened = reopenedNotice(closed, id);
  if (reopened) ctx.warn(reopened);
  const emailed = body.sendEmail === 'yes';
  // on a terminal, a Status the answer did not give is left out, not shown empty
  const fields = INVITATION_COLUMNS.filter(
    (c) => c.key !== 'status' || res.status != null || ctx.globals.output !== 'table',
  );
  await new Printer(ctx).object({ ...res, emailed }, { fields });
  if (!withheld) ctx.info(emailNotice(emailed, input.email));
  await noteEmbeddedUrls(ctx);
}

/** Tells (on stderr) when the service handed back an invitation the candidate already had. */
function explainReturned(ctx: Context, status: string | null | undefined, id: string): void {
  switch (classifyReturned(status)) {
    case 'existing-in-progress':
      ctx.warn(
        `existing invitation ${id} returned: the candidate is taking ` +
          `this test right now (In Progress); nothing was changed.`,
      );
      break;
    case 'existing-taken':
      ctx.warn(
        `existing invitation ${id} returned: the candidate already took this test (${status}); the link shows them ` +
          `an "already appeared" message. ` +
          `To let them take it again: assess reattempt ${id} --start now --end 7d --tz ID`,
      );
      break;
    case 'existing-other':
      ctx.warn(`existing invitation ${id} returned with status ${status}.`);
      break;
    default:
      break;
  }
}
