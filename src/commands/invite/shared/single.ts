// `assess invite <testId> --email E --name N …`: one candidate, via the test's default link
// (operation 3) or a chosen link (`--link`, operation 10).
import { defineCommand } from '../../../cli/command.js';
import { fieldsOfAnswer } from '../../../cli/json-fields.js';
import type { Context } from '../../../context.js';
import { Printer, type Column } from '../../../output/printer.js';
import { resolveTz } from '../../shared/timezone.js';
import type * as R from '../../../api/read/v3.js';
import {
  checkInvite,
  classifyReturned,
  INVITE_ARGS,
  INVITE_FLAGS,
  inviteBody,
  invitationSettled,
  type InviteInput,
} from './body.js';
import type { V3Client } from '../../../api/v3.js';
import type { Ledger } from '../../shared/ledger.js';
import { inviteV2, v2InviteFields } from './v2.js';
import { noteEmbeddedUrls } from '../../shared/live-sandbox.js';
import { sendRecorded, viaOf, withLedger } from '../../shared/record-invite.js';
import { emailAgain, withheldNotice } from '../../shared/second-email.js';
import { emailNotice } from '../../shared/email-notice.js';
import { closedInvitations, reopenedNotice } from '../../shared/reopened.js';

export const INVITATION_COLUMNS: Column<R.Invitation>[] = [
  { key: 'testInvitationId', header: 'Invitation', kind: 'id' },
  { key: 'testUrl', header: 'URL' },
  { key: 'status', header: 'Status', kind: 'status' },
];

/** What `--json a,b` may name for one invitation: the wire fields of either invite answer (the same), and `emailed`. */
const FIELDS = fieldsOfAnswer('v3.invite', INVITATION_COLUMNS, ['emailed']);

export default defineCommand({
  name: 'invite',
  args: INVITE_ARGS,
  description: 'Invite a candidate to a test through its default link, or through a chosen link with --link',
  examples: [
    'assess invite 1001 --email ann@example.com --name "Ann Lee"',
    'assess invite 1001 --email ann@example.com --name "Ann Lee" --start 2026-03-01 --end 7d --tz 35 --send-email',
    'assess invite 1001 --link 5002 --email ann@example.com --name "Ann Lee" --callback-url https://example.com/hook',
    'assess invite 1001 --no-mandatory-fields --json testInvitationId,testUrl',
  ],
  flags: INVITE_FLAGS,
  check: checkInvite,
  jsonFields: FIELDS,
  v2: { run: inviteV2, jsonFields: (input) => v2InviteFields(input) },
  async run(ctx, input) {
    const client = await ctx.api();
    const body = inviteBody({ ...input, tz: await resolveTz(ctx, input.tz) });
    // opened before anything is sent: a store that cannot be written stops here
    await withLedger(ctx, (ledger) => inviteOne(ctx, ledger, client, input, body));
  },
});

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
  const attempt = {
    via: viaOf(ctx, input.link ? 'invite --link' : 'invite'),
    api: 'v3' as const,
    testId: input.testId,
    linkId: input.link,
    email: input.email,
    name: input.name,
    sendEmail: body.sendEmail === 'yes',
    withheld,
    callbackUrl: input.callbackUrl,
  };
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
        `existing invitation ${id} returned: the candidate is taking this test right now (In Progress); nothing was changed.`,
      );
      break;
    case 'existing-taken':
      ctx.warn(
        `existing invitation ${id} returned: the candidate already took this test (${status}); the link shows them an "already appeared" message. ` +
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
