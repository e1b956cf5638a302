// Flags → request body for invite via the default link (operation 3) or via a chosen link
// (operation 10). Pure, so the body spellings are unit-tested without a server.
import type { BodyOf } from '../../../api/operations/index.js';
import * as z from 'zod/mini';
import { isEmail } from '../../../api/schemas/email.js';
import { arg, flag, zx } from '../../../cli/command.js';
import { schemaOf, type InputOf } from '../../../cli/flags.js';
import { timeArg } from '../../../util/time.js';
import { tzArg } from '../../../util/time-zone-arg.js';
import type { Settled } from '../../shared/ledger.js';

/** Flags that operation 10 (invite via a chosen link) has no body field for. */
export const DEFAULT_LINK_ONLY = ['stakeholders', 'start', 'end', 'tz', 'proctoring'] as const;
const FLAG_NAMES: Record<(typeof DEFAULT_LINK_ONLY)[number], string> = {
  stakeholders: '--stakeholders/--no-stakeholders',
  start: '--start',
  end: '--end',
  tz: '--tz',
  proctoring: '--proctoring',
};

/** `--stakeholders a@x,b@y` (a string) or `--no-stakeholders` (false). */
const stakeholders = () =>
  z.union([z.literal(false), z.string()]).check(
    z.superRefine((v, ctx) => {
      if (v === false) return;
      const bad = v
        .split(',')
        .map((s) => s.trim())
        .filter((s) => !isEmail(s));
      if (bad.length)
        ctx.addIssue({
          code: 'custom',
          message:
            `must be comma-separated e-mail addresses, e.g. hr@example.com,lead@example.com (not an e-mail: ` +
            `${bad.map((b) => `'${b}'`).join(', ')}); use --no-stakeholders to turn them off`,
        });
    }),
  );

/** The flags of one invitation (in bulk: defaults for every row), in help order. */
export const INVITE_FLAGS = {
  email: flag('candidate e-mail (the same e-mail is the same candidate)', { value: 'email' }, () =>
    z.optional(zx.email()),
  ),
  name: flag('candidate full name', { value: 'name' }, () => z.optional(zx.name('"Ann Lee"'))),
  link: flag('invite through this test link (operation 10) instead of the default link', { value: 'linkId' }, () =>
    z.optional(zx.id('2001')),
  ),
  callbackUrl: flag('address that receives the completion notification', { value: 'url' }, () => z.optional(zx.url())),
  redirectUrl: flag('address the candidate is sent to after the test', { value: 'url' }, () => z.optional(zx.url())),
  sendEmail: flag('let the service e-mail the invitation to the candidate (default: no e-mail)', () =>
    z.optional(z.boolean()),
  ),
  stakeholders: flag(
    'comma-separated e-mails notified on completion (default link only)',
    { value: 'list', negate: 'send no stakeholder e-mails for this invitation (default link only)' },
    () => z.optional(stakeholders()),
  ),
  start: flag(
    'access window start: YYYY-MM-DD, ISO 8601 or relative (now, +2d, "in 2d", today); needs --end',
    { value: 'T' },
    () => z.optional(timeArg('future')),
  ),
  end: flag('access window end, e.g. +7d or "in 7d" (a bare 7d also counts forward)', { value: 'T' }, () =>
    z.optional(timeArg('future')),
  ),
  tz: flag('time zone of the access window: an id or a name (assess timezones)', { value: 'id|name' }, () =>
    z.optional(tzArg()),
  ),
  proctoring: flag('proctoring mode: disabled, image or video (default link only)', { value: 'mode' }, () =>
    z.optional(
      z.enum(['disabled', 'image', 'video'], {
        message: 'must be one of disabled, image, video, e.g. --proctoring image',
      }),
    ),
  ),
  imageProctoring: flag('override image proctoring for this invitation', { value: '0|1' }, () =>
    z.optional(
      z.pipe(z.enum(['0', '1'], { message: 'must be 0 or 1, e.g. --image-proctoring 1' }), z.transform(Number)),
    ),
  ),
  hideInstructions: flag('skip the instruction page', () => z.optional(z.boolean())),
  /** commander's `--no-mandatory-fields` makes this true unless the flag is given. */
  mandatoryFields: flag(
    'e-mail and name become optional; the service generates both when absent',
    { long: 'no-mandatory-fields' },
    () => z._default(z.boolean(), true),
  ),
};

export const INVITE_ARGS = { testId: arg(() => zx.id('1001')) };

type Declared = InputOf<typeof INVITE_ARGS & typeof INVITE_FLAGS>;

/** Rules between the flags of one invitation (also checked for every CSV row). */
export function checkInvite(v: Declared, ctx: z.core.$RefinementCtx): void {
  if (v.link) {
    for (const k of DEFAULT_LINK_ONLY)
      if (v[k] !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: [k],
          message:
            `cannot be used with --link: inviting through a chosen link takes ${FLAG_NAMES[k]} from the ` +
            `link's own settings (change them with 'assess links update')`,
        });
  }
  if (v.mandatoryFields) {
    if (!v.email)
      ctx.addIssue({
        code: 'custom',
        path: ['email'],
        message: 'is required, e.g. --email ann@example.com (or --no-mandatory-fields)',
      });
    if (!v.name)
      ctx.addIssue({
        code: 'custom',
        path: ['name'],
        message: 'is required, e.g. --name "Ann Lee" (or --no-mandatory-fields)',
      });
  }
  if ((v.start === undefined) !== (v.end === undefined))
    ctx.addIssue({
      code: 'custom',
      path: [v.start === undefined ? 'start' : 'end'],
      message: 'is required when the other of --start/--end is given, e.g. --start 2026-03-01 --end +7d',
    });
  if (v.start && v.end && Date.parse(v.end) <= Date.parse(v.start))
    ctx.addIssue({ code: 'custom', path: ['end'], message: `must be after --start (${v.start})` });
}

const buildInviteSchema = () => schemaOf({ ...INVITE_ARGS, ...INVITE_FLAGS }, checkInvite);
let built: ReturnType<typeof buildInviteSchema> | undefined;

/** One invitation's input, validated (the command, each CSV row): built on first use, as a command's schema is. */
export const inviteSchema = (): ReturnType<typeof buildInviteSchema> => (built ??= buildInviteSchema());

export type InviteInput = z.infer<ReturnType<typeof inviteSchema>>;

/** The request body, spelled as in the spec's samples (callbackURL, redirectURL, ProctoringMode). */
export type InviteBody = BodyOf<'v3.invite'>;

export function inviteBody(v: InviteInput): InviteBody {
  // a --tz name is resolved by the command before the body is built (shared/timezone.ts)
  if (typeof v.tz === 'string') throw new Error(`unresolved time zone name '${v.tz}'`);
  const body: InviteBody = {};
  if (v.email !== undefined) body.email = v.email;
  if (v.name !== undefined) body.name = v.name;
  if (v.callbackUrl) body.callbackURL = v.callbackUrl;
  if (v.redirectUrl) body.redirectURL = v.redirectUrl;
  if (!v.mandatoryFields) body.disableMandatoryFields = 1;
  if (v.hideInstructions) body.hideInstruction = 1;
  // Explicit, so the invitation never depends on a server-side default for e-mails.
  body.sendEmail = v.sendEmail ? 'yes' : 'no';
  if (v.imageProctoring !== undefined) body.imageProctoring = v.imageProctoring === 1 ? 1 : 0;
  if (v.link) return body; // operation 10 has none of the fields below
  if (v.stakeholders === false) body.stakeholderEmails = 'disable';
  else if (v.stakeholders !== undefined)
    body.stakeholderEmails = v.stakeholders
      .split(',')
      .map((s) => s.trim())
      .join(',');
  if (v.start) body.startDateTime = v.start;
  if (v.end) body.endDateTime = v.end;
  if (v.tz !== undefined) body.timeZoneId = v.tz;
  if (v.proctoring) body.ProctoringMode = v.proctoring;
  return body;
}

export type ReturnedKind = 'new' | 'existing-in-progress' | 'existing-taken' | 'existing-other' | 'unknown';

/**
 * What the returned status says about the invitation. A fresh invitation is Pending; the
 * service also answers Pending when it reused a Pending/Cancelled/Expired one (it cannot be told
 * apart from the response), so only other statuses are reported as existing. See docs/assumptions.md.
 */
export function classifyReturned(status: string | null | undefined): ReturnedKind {
  if (status == null) return 'unknown';
  // the reader has already put known synonyms into the spec's spelling (Completed → Complete)
  switch (status.toLowerCase()) {
    case 'pending':
      return 'new';
    case 'in progress':
      return 'existing-in-progress';
    case 'complete':
    case 'completed':
    case 'test left':
    case 'terminated':
      return 'existing-taken';
    default:
      return 'existing-other';
  }
}

/** An invitation's answer as the ledger keeps it (a status other than Pending: the service returned one it had). */
export function invitationSettled(res: {
  testInvitationId?: unknown;
  testUrl?: string | null;
  status?: string | null;
}): Settled {
  const kind = classifyReturned(res.status);
  return {
    outcome: kind === 'new' || kind === 'unknown' ? 'invited' : 'existing',
    invitationId: res.testInvitationId == null ? undefined : String(res.testInvitationId),
    status: res.status ?? null,
    testUrl: res.testUrl ?? undefined,
  };
}
