// `assess reattempt <invitationId> --start T --end T --tz ID …` (operation 9): a new access window
// for an invitation (./command.run.ts).
import * as z from 'zod/mini';
import { arg, defineCommand, flag, zx } from '../../cli/command.js';
import { schemaOf } from '../../cli/flags.js';
import { fieldsOfAnswer } from '../../cli/json-fields.js';
import type * as R from '../../api/read/v3.js';
import type { Column } from '../../output/printer.js';
import { timeArg } from '../../util/time.js';
import { tzArg } from '../../util/time-zone-arg.js';

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

export const REATTEMPT_COLUMNS: Column<R.Reattempt>[] = [
  { key: 'testInvitationId', header: 'Invitation', kind: 'id' },
  { key: 'testUrl', header: 'URL' },
  { key: 'callbackUrlRegistered', header: 'Callback URL' },
  { key: 'redirectUrlRegistered', header: 'Redirect URL' },
];

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
  jsonFields: fieldsOfAnswer('v3.reattempt', REATTEMPT_COLUMNS, ['emailed']),
  v2: { unsupported: 'v2 has no reattempt' },
  tzFromProfile: () => true,
  handler: () => import('./command.run.js'),
});
