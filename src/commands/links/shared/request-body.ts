// The bodies of links create (11) and update (12), built from the flags and checked against the
// request schemas before they are sent. Loaded when a command runs (the schemas are built then),
// apart from the flags in body.ts, which a usage error needs.
import * as z from 'zod/mini';
import { TestLinkInput, TestLinkUpdateInput } from '../../../api/schemas/links.js';
import { parseWith } from '../../../api/schemas/parse.js';
import type { InvitationScheduleInput } from '../../../api/schemas/schedule.js';
import type { TestLink } from '../../../api/read/v3.js';
import { UsageError } from '../../../errors.js';
import type { ResolvedLinkFlags } from './body.js';

/** The schedule the link has now, in request shape (null fields dropped), or undefined. */
export function currentSchedule(link: Pick<TestLink, 'invitationSchedule'>): InvitationScheduleInput | undefined {
  const s = link.invitationSchedule;
  const d = s?.scheduleDetails;
  if (!s || !d || d.timeZoneId == null) return undefined;
  const timeZoneId = Number(d.timeZoneId);
  if (s.scheduleType === 'validityindays' && d.invitationValidityInDays != null)
    return {
      scheduleType: 'validityindays',
      scheduleDetails: { invitationValidityInDays: d.invitationValidityInDays, timeZoneId },
    };
  if ((s.scheduleType === 'timebound' || s.scheduleType === 'slotwise') && d.startDateTime && d.endDateTime)
    return {
      scheduleType: s.scheduleType,
      scheduleDetails: { startDateTime: d.startDateTime, endDateTime: d.endDateTime, timeZoneId },
    };
  return undefined;
}

/**
 * The schedule after the flags: undefined when no schedule flag was given (keep the current one).
 * On update a missing --tz, --start or --end is taken from the current schedule.
 */
export function buildSchedule(
  f: ResolvedLinkFlags,
  current?: InvitationScheduleInput,
  onUpdate = false,
): InvitationScheduleInput | undefined {
  if (f.validDays === undefined && !f.start && !f.end && f.slotwise === undefined && f.tz === undefined)
    return undefined;
  const tz = f.tz ?? current?.scheduleDetails.timeZoneId;
  // On update the schedule comes from the service's answer, which may leave it out (or null it):
  // say what is missing from the answer, not that the link has none.
  if (tz === undefined)
    throw new UsageError(
      onUpdate
        ? "--tz: the service's answer does not give the link's time zone; give one, e.g. --tz Asia/Kolkata"
        : '--tz: the link has no time zone yet; give one, e.g. --tz Asia/Kolkata',
    );
  if (f.validDays !== undefined)
    return {
      scheduleType: 'validityindays',
      scheduleDetails: { invitationValidityInDays: f.validDays, timeZoneId: tz },
    };
  const window = current && current.scheduleType !== 'validityindays' ? current : undefined;
  if (f.start || f.end || f.slotwise !== undefined) {
    const start = f.start ?? window?.scheduleDetails.startDateTime;
    const end = f.end ?? window?.scheduleDetails.endDateTime;
    const why = onUpdate
      ? "the service's answer gives the link none (it may be valid for a number of days)"
      : 'the link has none yet';
    if (!start) throw new UsageError(`--start: required, because ${why.replace('none', 'no start time')}`);
    if (!end) throw new UsageError(`--end: required, because ${why.replace('none', 'no end time')}`);
    if (Date.parse(end) <= Date.parse(start))
      throw new UsageError(`--end: must be after the start (${start}), got ${end}`);
    const scheduleType =
      f.slotwise === true ? 'slotwise' : f.slotwise === false ? 'timebound' : (window?.scheduleType ?? 'timebound');
    return { scheduleType, scheduleDetails: { startDateTime: start, endDateTime: end, timeZoneId: tz } };
  }
  // Only --tz: the same schedule in another time zone.
  if (!current)
    throw new UsageError(
      `--tz: ${onUpdate ? "the service's answer gives the link no schedule" : 'the link has no schedule'} to move; ` +
        `add --valid-days N or --start T --end T`,
    );
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
    proctoringSettings: link.proctoringSettings?.proctoringMode
      ? { proctoringMode: link.proctoringSettings.proctoringMode }
      : undefined,
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
  const schedule = buildSchedule(f, currentSchedule(link), true);
  const changes: LinkBody = {
    ...(f.name !== undefined ? { testLinkName: f.name } : {}),
    ...(f.status ? { testLinkStatus: f.status } : {}),
    ...(f.type ? { invitationType: f.type } : {}),
    ...(f.proctoring ? { proctoringSettings: { proctoringMode: f.proctoring } } : {}),
    // --no-stakeholders: null, the spec's "none" (a left-out field would keep the list)
    ...(f.stakeholders === false
      ? { stakeholderEmails: null }
      : f.stakeholders
        ? { stakeholderEmails: f.stakeholders }
        : {}),
    ...(schedule ? { invitationSchedule: schedule } : {}),
  };
  const r = parseWith(TestLinkUpdateInput, changes);
  if (!r.ok) throw new UsageError(`the test link would be invalid: ${r.errors.join('; ')}`);
  return { ...bodyOf(link), ...changes };
}

/** The whole body must satisfy the shared request schema before it is sent. */
function checked(body: LinkBody): LinkBody {
  const r = parseWith(z.omit(TestLinkInput, { testId: true }), body);
  if (!r.ok) throw new UsageError(`the test link would be invalid: ${r.errors.join('; ')}`);
  // Send what was built (keeps field order and omits defaults the schema would add).
  return body;
}
