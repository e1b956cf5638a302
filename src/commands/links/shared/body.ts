// Friendly flags → the spec's test link object (operations 11 and 12). Shared by `links create`
// (every field from flags and defaults) and `links update` (flags merged onto the current link).
import type { Command } from 'commander';
import * as z from 'zod';
import { isEmail } from '../../../api/schemas/common.js';
import { TestLinkInput, TestLinkUpdateInput } from '../../../api/schemas/links.js';
import { parseWith } from '../../../api/schemas/parse.js';
import type { InvitationScheduleInput } from '../../../api/schemas/schedule.js';
import type { TestLink } from '../../../api/read/v3.js';
import { zx } from '../../../cli/command.js';
import { UsageError } from '../../../errors.js';
import { tzArg } from '../../../util/time-zone-arg.js';
import { timeArg } from '../../../util/time.js';

export function addLinkOptions(cmd: Command, mode: 'create' | 'update'): Command {
  const dflt = (d: string) => (mode === 'create' ? ` (default ${d})` : '');
  cmd
    .option('--name <name>', mode === 'create' ? 'name of the link (required)' : 'new name of the link')
    .option('--status <status>', `active or inactive${dflt('active')}`)
    .option('--type <type>', `invitation type: email (only invited candidates) or open${dflt('open')}`)
    .option('--proctoring <mode>', `proctoring mode: disabled, image or video${dflt('disabled')}`)
    .option('--stakeholders <emails>', 'comma-separated e-mails notified when a candidate completes')
    .option('--valid-days <n>', 'schedule: an invitation stays valid for N days (validityindays)')
    .option('--start <T>', 'schedule: access opens at T (timebound); YYYY-MM-DD, ISO 8601 or relative (2d)')
    .option('--end <T>', 'schedule: access closes at T (after --start)')
    .option('--slotwise', 'with --start/--end: only inside the daily window given by their time parts (slotwise)')
    .option('--tz <id|name>', `time zone id or name (assess timezones) the schedule is read in${mode === 'create' ? '; required with a schedule' : ''}`);
  if (mode === 'update') cmd.option('--no-slotwise', 'make a slotwise link timebound again');
  return cmd;
}

const emailList = z.string().transform((v, c) => {
  const parts = v
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const bad = parts.filter((p) => !isEmail(p));
  if (!parts.length || bad.length) {
    c.addIssue({
      code: 'custom',
      message: `must be comma-separated e-mail addresses, e.g. ann@example.com,bo@example.com${bad.length ? `; not an e-mail: ${bad.map((b) => `'${b}'`).join(', ')}` : ''}`,
    });
    return z.NEVER;
  }
  return parts.join(',');
});

const oneOf = <T extends string>(values: [T, ...T[]]) => z.enum(values, { message: `must be one of ${values.join(', ')}, e.g. ${values[0]}` });

/** The link flags, validated; cross-flag rules are added per command by `refineLinkFlags`. */
export const linkFlagShape = {
  name: zx.name('--name "Campus 2026"').optional(),
  status: oneOf(['active', 'inactive']).optional(),
  type: oneOf(['email', 'open']).optional(),
  proctoring: oneOf(['disabled', 'image', 'video']).optional(),
  stakeholders: emailList.optional(),
  validDays: zx.int(1, 3650, 7).optional(),
  start: timeArg('future').optional(),
  end: timeArg('future').optional(),
  slotwise: z.boolean().optional(),
  tz: tzArg().optional(),
};
const LinkFlagsObject = z.object(linkFlagShape);
export type LinkFlags = z.infer<typeof LinkFlagsObject>;
/** The flags once --tz is resolved to the service's id (a name needs the service's list). */
export type ResolvedLinkFlags = Omit<LinkFlags, 'tz'> & { tz?: number };

/** Rules between flags. `create` also needs a name and a complete schedule with its time zone. */
export function refineLinkFlags(v: LinkFlags, c: z.core.$RefinementCtx, mode: 'create' | 'update'): void {
  const issue = (path: string, message: string) => c.addIssue({ code: 'custom', path: [path], message });
  if (v.validDays !== undefined && (v.start || v.end)) issue('validDays', 'cannot be combined with --start/--end; choose one schedule');
  if (v.validDays !== undefined && v.slotwise) issue('slotwise', 'only applies to a --start/--end schedule, not --valid-days');
  if (v.start && v.end && Date.parse(v.end) <= Date.parse(v.start)) issue('end', `must be after --start (${v.start} → ${v.end})`);
  if (mode === 'update') return;
  if (!v.name) issue('name', 'is required, e.g. --name "Campus 2026"');
  if (v.validDays === undefined && !v.start && !v.end) issue('validDays', 'a schedule is required: --valid-days N, or --start T --end T (with --tz ID)');
  if (v.start && !v.end) issue('end', 'is required with --start');
  if (v.end && !v.start) issue('start', 'is required with --end');
  if (v.slotwise && !v.start) issue('slotwise', 'needs --start and --end');
  if ((v.validDays !== undefined || v.start || v.end) && v.tz === undefined)
    issue('tz', 'is required with a schedule, e.g. --tz 1 (or once: assess config set tz Asia/Kolkata)');
}

/** The schedule the link has now, in request shape (null fields dropped), or undefined. */
export function currentSchedule(link: Pick<TestLink, 'invitationSchedule'>): InvitationScheduleInput | undefined {
  const s = link.invitationSchedule;
  const d = s?.scheduleDetails;
  if (!s || !d || d.timeZoneId == null) return undefined;
  const timeZoneId = Number(d.timeZoneId);
  if (s.scheduleType === 'validityindays' && d.invitationValidityInDays != null)
    return { scheduleType: 'validityindays', scheduleDetails: { invitationValidityInDays: d.invitationValidityInDays, timeZoneId } };
  if ((s.scheduleType === 'timebound' || s.scheduleType === 'slotwise') && d.startDateTime && d.endDateTime)
    return { scheduleType: s.scheduleType, scheduleDetails: { startDateTime: d.startDateTime, endDateTime: d.endDateTime, timeZoneId } };
  return undefined;
}

/**
 * The schedule after the flags: undefined when no schedule flag was given (keep the current one).
 * On update a missing --tz, --start or --end is taken from the current schedule.
 */
export function buildSchedule(f: ResolvedLinkFlags, current?: InvitationScheduleInput): InvitationScheduleInput | undefined {
  if (f.validDays === undefined && !f.start && !f.end && f.slotwise === undefined && f.tz === undefined) return undefined;
  const tz = f.tz ?? current?.scheduleDetails.timeZoneId;
  if (tz === undefined) throw new UsageError('--tz: the link has no time zone yet; give one, e.g. --tz 1');
  if (f.validDays !== undefined) return { scheduleType: 'validityindays', scheduleDetails: { invitationValidityInDays: f.validDays, timeZoneId: tz } };
  const window = current && current.scheduleType !== 'validityindays' ? current : undefined;
  if (f.start || f.end || f.slotwise !== undefined) {
    const start = f.start ?? window?.scheduleDetails.startDateTime;
    const end = f.end ?? window?.scheduleDetails.endDateTime;
    if (!start) throw new UsageError('--start: required, because the link has no start time yet (it is valid for a number of days)');
    if (!end) throw new UsageError('--end: required, because the link has no end time yet (it is valid for a number of days)');
    if (Date.parse(end) <= Date.parse(start)) throw new UsageError(`--end: must be after the start (${start}), got ${end}`);
    const scheduleType = f.slotwise === true ? 'slotwise' : f.slotwise === false ? 'timebound' : (window?.scheduleType ?? 'timebound');
    return { scheduleType, scheduleDetails: { startDateTime: start, endDateTime: end, timeZoneId: tz } };
  }
  // Only --tz: the same schedule in another time zone.
  if (!current) throw new UsageError('--tz: the link has no schedule to move; add --valid-days N or --start T --end T');
  return { ...current, scheduleDetails: { ...current.scheduleDetails, timeZoneId: tz } } as InvitationScheduleInput;
}

export type LinkBody = Record<string, unknown>;

/** The body of create (11) from flags and defaults. */
export function createBody(f: ResolvedLinkFlags): LinkBody {
  return checked({
    testLinkName: f.name,
    testLinkStatus: f.status ?? 'active',
    invitationType: f.type ?? 'open',
    proctoringSettings: { proctoringMode: f.proctoring ?? 'disabled' },
    ...(f.stakeholders ? { stakeholderEmails: f.stakeholders } : {}),
    invitationSchedule: buildSchedule(f),
  });
}

/**
 * The current link as an update body: what would be sent if nothing changed. A field the service
 * left out or sent as null is left out (the update keeps the stored value), never sent as null.
 */
export function bodyOf(link: TestLink): LinkBody {
  const body: LinkBody = {
    testLinkName: link.testLinkName,
    testLinkStatus: link.testLinkStatus,
    invitationType: link.invitationType,
    ...(typeof link.isApiLink === 'boolean' ? { isApiLink: link.isApiLink } : {}),
    proctoringSettings: link.proctoringSettings?.proctoringMode ? { proctoringMode: link.proctoringSettings.proctoringMode } : undefined,
    ...(link.stakeholderEmails ? { stakeholderEmails: link.stakeholderEmails } : {}),
    invitationSchedule: currentSchedule(link),
  };
  for (const k of Object.keys(body)) if (body[k] == null) delete body[k];
  return body;
}

/**
 * The body of update (12): the current link with only the given flags changed. Only what the
 * user changes is validated: values read from the service go back as they came, even where the
 * CLI would not accept them from a user (the service returned them, so it takes them).
 */
export function mergeBody(link: TestLink, f: ResolvedLinkFlags): LinkBody {
  const schedule = buildSchedule(f, currentSchedule(link));
  const changes: LinkBody = {
    ...(f.name !== undefined ? { testLinkName: f.name } : {}),
    ...(f.status ? { testLinkStatus: f.status } : {}),
    ...(f.type ? { invitationType: f.type } : {}),
    ...(f.proctoring ? { proctoringSettings: { proctoringMode: f.proctoring } } : {}),
    ...(f.stakeholders ? { stakeholderEmails: f.stakeholders } : {}),
    ...(schedule ? { invitationSchedule: schedule } : {}),
  };
  const r = parseWith(TestLinkUpdateInput, changes);
  if (!r.ok) throw new UsageError(`the test link would be invalid: ${r.errors.join('; ')}`);
  return { ...bodyOf(link), ...changes };
}

/** The whole body must satisfy the shared request schema before it is sent. */
function checked(body: LinkBody): LinkBody {
  const r = parseWith(TestLinkInput.omit({ testId: true }), body);
  if (!r.ok) throw new UsageError(`the test link would be invalid: ${r.errors.join('; ')}`);
  // Send what was built (keeps field order and omits defaults the schema would add).
  return body;
}
