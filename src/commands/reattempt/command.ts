// `assess reattempt <invitationId> --start T --end T --tz ID …` (operation 9).
import type { BodyOf } from '../../api/operations/index.js';
import * as z from 'zod/mini';
import { ApiError } from '../../api/errors.js';
import { arg, defineCommand, flag, zx } from '../../cli/command.js';
import { schemaOf } from '../../cli/flags.js';
import { fieldsOfAnswer } from '../../cli/json-fields.js';
import type * as R from '../../api/read/v3.js';
import { Printer, type Column } from '../../output/printer.js';
import { timeArg } from '../../util/time.js';
import { tzArg } from '../../util/time-zone-arg.js';
import { resolveTz } from '../shared/timezone.js';
import { noteEmbeddedUrls } from '../shared/live-sandbox.js';
import { sendRecorded, viaOf, withLedger } from '../shared/record-invite.js';
import { emailNotice } from '../shared/email-notice.js';
import { closedInvitations, reopenedNotice } from '../shared/reopened.js';

const ARGS = { invitationId: arg(() => zx.id('900001')) };
const FLAGS = {
  start: flag('access window start: YYYY-MM-DD, ISO 8601 or relative (now, +2d, "in 2d", today)', { value: 'T' }, () =>
    z.optional(timeArg('future')),
  ),
  end: flag('access window end, e.g. +7d or "in 7d" (a bare 7d also counts forward)', { value: 'T' }, () =>
    z.optional(timeArg('future')),
  ),
  tz: flag('time zone of the access window: an id or a name (assess timezones)', { value: 'id|name' }, () =>
    z.optional(tzArg()),
  ),
  callbackUrl: flag('address that receives the completion notification', { value: 'url' }, () => z.optional(zx.url())),
  redirectUrl: flag('address the candidate is sent to after the test', { value: 'url' }, () => z.optional(zx.url())),
  sendEmail: flag('let the service e-mail the invitation to the candidate', () => z.optional(z.boolean())),
  hideInstructions: flag('skip the instruction page', () => z.optional(z.boolean())),
};

/** --start, --end and --tz are required (the profile's tz may fill --tz), and the window must not be empty. */
function checkWindow(v: { start?: string; end?: string; tz?: unknown }, ctx: z.core.$RefinementCtx): void {
  const need = {
    start: '--start now',
    end: '--end +7d',
    tz: '--tz Asia/Kolkata (or once: assess config set tz Asia/Kolkata)',
  } as const;
  for (const k of ['start', 'end', 'tz'] as const)
    if (v[k] === undefined) ctx.addIssue({ code: 'custom', path: [k], message: `is required, e.g. ${need[k]}` });
  if (v.start && v.end && Date.parse(v.end) <= Date.parse(v.start))
    ctx.addIssue({ code: 'custom', path: ['end'], message: `must be after --start (${v.start})` });
}

/** What the command validates, with the required values typed as present. */
export const reattemptSchema = z.pipe(
  schemaOf({ ...ARGS, ...FLAGS }, checkWindow),
  z.transform((v) => ({ ...v, start: v.start!, end: v.end!, tz: v.tz! })),
);
export type ReattemptInput = z.infer<typeof reattemptSchema>;

const COLUMNS: Column<R.Reattempt>[] = [
  { key: 'testInvitationId', header: 'Invitation', kind: 'id' },
  { key: 'testUrl', header: 'URL' },
  { key: 'callbackUrlRegistered', header: 'Callback URL' },
  { key: 'redirectUrlRegistered', header: 'Redirect URL' },
];

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

export default defineCommand({
  name: 'reattempt',
  args: ARGS,
  description: 'Allow a candidate to take a test again (a new invitation once the previous attempt was taken)',
  examples: [
    'assess reattempt 900001 --start now --end 7d --tz Asia/Kolkata',
    'assess reattempt 900002 --start 2026-03-01 --end 2026-03-08 --tz 35 --send-email --json',
  ],
  flags: FLAGS,
  check: checkWindow,
  jsonFields: fieldsOfAnswer('v3.reattempt', COLUMNS, ['emailed']),
  v2: { unsupported: 'v2 has no reattempt' },
  tzFromProfile: () => true,
  async run(ctx, input) {
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
    await new Printer(ctx).object({ ...res, emailed }, { fields: COLUMNS });
    ctx.info(emailNotice(emailed));
    await noteEmbeddedUrls(ctx);
  },
});

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
    ? `reattempt refused: invitation ${id} (or its latest reattempt) is In Progress; run this again once the candidate has finished the test`
    : `reattempt refused for invitation ${id}`;
  return new ApiError(
    400,
    { shape: 'statusMessage', statusCode: 400, message: `${why} (service: ${said})` },
    err.request,
    err.attempts,
  );
}
