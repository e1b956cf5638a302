// `invite --api v2`: register (default link) or, with --link, register via a test link. v2
// registration takes e-mail, name, callback and redirect URLs only; other flags are refused.
import type { BodyOf } from '../../../api/operations/index.js';
import type { Context } from '../../../context.js';
import { UsageError } from '../../../errors.js';
import { Printer } from '../../../output/printer.js';
import type { InviteInput } from './body.js';
import { v2Client } from '../../shared/v2/client.js';
import { noteEmbeddedUrls } from '../../shared/live-sandbox.js';
import { inviteAttempt, sendRecorded, withLedger } from '../../shared/record-invite.js';
import type { Ledger } from '../../shared/ledger.js';
import type { V2Client } from '../../../api/v2.js';
import { BY_LINK, DEFAULT_LINK } from './v2-fields.js';

const NOT_IN_V2: Array<[keyof InviteInput, string]> = [
  ['sendEmail', '--send-email'],
  ['stakeholders', '--stakeholders/--no-stakeholders'],
  ['start', '--start'],
  ['end', '--end'],
  ['tz', '--tz'],
  ['proctoring', '--proctoring'],
  ['imageProctoring', '--image-proctoring'],
  ['hideInstructions', '--hide-instructions'],
];
/** v2 registration has no sendEmail: the candidate is never e-mailed. */
const V2_NO_EMAIL = 'No e-mail sent (v2 registration sends none) — share the URL, or invite with v3 and --send-email.';

/** The register body (spec spelling: emailId, fullName, callbackURL, redirectURL). */
export function registerBody(v: InviteInput): BodyOf<'v2.register'> {
  for (const [key, flag] of NOT_IN_V2)
    if (v[key] !== undefined)
      throw new UsageError(`${flag}: v2 registration has no such setting; drop it, or use v3 (without --api v2)`);
  if (!v.mandatoryFields)
    throw new UsageError('--no-mandatory-fields: v2 registration always needs --email and --name');
  if (v.email === undefined || v.name === undefined)
    throw new UsageError(
      '--email and --name: v2 registration needs both, e.g. --email ann@example.com --name "Ann Lee"',
    );
  const body: BodyOf<'v2.register'> = { emailId: v.email, fullName: v.name };
  if (v.callbackUrl) body.callbackURL = v.callbackUrl;
  if (v.redirectUrl) body.redirectURL = v.redirectUrl;
  return body;
}

export async function inviteV2(ctx: Context, v: InviteInput): Promise<void> {
  const body = registerBody(v);
  const api = await v2Client(ctx);
  // opened before anything is sent: a store that cannot be written stops here
  const res = await withLedger(ctx, (ledger) => registerRecorded(ctx, ledger, api, v, body));
  const shown: Record<string, unknown> = { ...res, emailed: false };
  await new Printer(ctx).object(shown, { fields: v.link ? BY_LINK : DEFAULT_LINK });
  ctx.info(V2_NO_EMAIL);
  await noteEmbeddedUrls(ctx);
}

function registerRecorded(
  ctx: Context,
  ledger: Ledger,
  api: V2Client,
  v: InviteInput,
  body: BodyOf<'v2.register'>,
): Promise<Record<string, unknown>> {
  return sendRecorded(
    ledger,
    inviteAttempt(ctx, v, { api: 'v2', sendEmail: false }),
    () => (v.link ? api.registerByLink(v.testId, v.link, body) : api.register(v.testId, body)),
    (r: Record<string, unknown>) => ({
      outcome: 'invited',
      invitationId: r.testInvitationId == null ? undefined : String(r.testInvitationId),
      testUrl: typeof (r.testUrl ?? r.takeTestURL) === 'string' ? String(r.testUrl ?? r.takeTestURL) : undefined,
    }),
  );
}
