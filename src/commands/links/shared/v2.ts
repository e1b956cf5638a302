// `links list|get|create|update --api v2`. The friendly flags map onto the v2 link fields:
// --status active|inactive → testLinkStatus 1|3, --type email|open → inviteCandidateOnly 1|0,
// --proctoring disabled|image → imageProctoring 0|1, --start/--end → accessTime 1 (2 with
// --slotwise), --anytime → accessTime 0, --stakeholders → emailToStakeholder (--no-stakeholders:
// null), --tz → timeZoneId.
// Dates go out in the v2 form (no Z).
import { toV2DateTime } from '../../../api/v2-date-time.js';
import type { V2TestLink as ReadV2Link } from '../../../api/read/v2.js';
import type { Context } from '../../../context.js';
import { OutcomeError, UsageError } from '../../../errors.js';
import { Printer } from '../../../output/printer.js';
import { diffObjects, formatChanges } from '../../shared/diff.js';
import { v2Client } from '../../shared/v2/client.js';
import { DETAIL, V2_LINK_COLUMNS, type V2LinkFlags } from './v2-fields.js';

type Body = Record<string, unknown>;

/** The v2 fields the flags set (only those given). */
export function v2LinkFields(f: V2LinkFlags): Body {
  if (f.validDays !== undefined)
    throw new UsageError(
      '--valid-days: v2 links have no validity in days; use --anytime (accessTime 0), or --start/--end (accessTime ' +
        '1, 2 with --slotwise)',
    );
  if (f.proctoring === 'video')
    throw new UsageError('--proctoring: v2 links know image proctoring only (disabled or image); video needs v3');
  const b: Body = {};
  if (f.name !== undefined) b.testLinkName = f.name;
  if (f.status) b.testLinkStatus = f.status === 'active' ? 1 : 3;
  if (f.type) b.inviteCandidateOnly = f.type === 'email' ? 1 : 0;
  if (f.proctoring) b.imageProctoring = f.proctoring === 'image' ? 1 : 0;
  if (f.stakeholders !== undefined) b.emailToStakeholder = f.stakeholders || null; // --no-stakeholders: none
  if (f.tz !== undefined) b.timeZoneId = f.tz;
  if (f.anytime) Object.assign(b, { accessTime: 0, startDateTime: null, endDateTime: null });
  if (f.start) b.startDateTime = toV2DateTime(f.start);
  if (f.end) b.endDateTime = toV2DateTime(f.end);
  // start/end alone leave accessTime to the caller (create: 1; update: keep 1 or 2, 0 becomes 1)
  if (f.slotwise !== undefined) b.accessTime = f.slotwise ? 2 : 1;
  return b;
}

/** The create body: flags plus the v3 command's defaults (status active, type open, no proctoring). */
export function v2CreateBody(f: V2LinkFlags): Body {
  const b = v2LinkFields(f);
  return {
    testLinkName: b.testLinkName,
    accessTime: b.accessTime ?? (f.start ? 1 : 0),
    ...(b.timeZoneId !== undefined ? { timeZoneId: b.timeZoneId } : {}),
    inviteCandidateOnly: b.inviteCandidateOnly ?? 0,
    imageProctoring: b.imageProctoring ?? 0,
    ...(b.emailToStakeholder ? { emailToStakeholder: b.emailToStakeholder } : {}),
    testLinkStatus: b.testLinkStatus ?? 1,
    ...(f.start ? { startDateTime: b.startDateTime, endDateTime: b.endDateTime } : {}),
  };
}

// The spec's v2 update takes "the same body as create", whose left-out fields fall back to
// create's defaults (open, no proctoring, active…): no field can be left out, and none may be
// filled with a default either. What the answer did not give is read again once, else the
// update is refused. The flag that gives each field instead:
const WHOLE_BODY = {
  testLinkName: '--name',
  accessTime: '--anytime or --slotwise/--no-slotwise',
  timeZoneId: '--tz',
  inviteCandidateOnly: '--type',
  imageProctoring: '--proctoring',
  emailToStakeholder: '--stakeholders',
  testLinkStatus: '--status',
  startDateTime: '--start',
  endDateTime: '--end',
} as const;
type WholeField = keyof typeof WHOLE_BODY;
const FIELDS = Object.keys(WHOLE_BODY) as WholeField[];

/** Whether the answer gave the field: null is a value only for stakeholders and an anytime link's dates. */
function given(l: ReadV2Link, k: WholeField): boolean {
  const dates = k === 'startDateTime' || k === 'endDateTime';
  if (l[k] !== null) return l[k] !== undefined && !(dates && l[k] === '');
  return k === 'emailToStakeholder' || (dates && l.accessTime === 0);
}

/** The current link as an update body: only the fields the answer gave (never a default). */
export function v2BodyOf(l: ReadV2Link): Body {
  const b: Body = {};
  for (const k of FIELDS) if (given(l, k)) b[k] = l[k];
  return b;
}

/** Whether a second read may fill in what the first left out (a null stakeholder list may be a dropped value too). */
export function v2AnswerIncomplete(l: ReadV2Link): boolean {
  return FIELDS.some((k) => !given(l, k) || (k === 'emailToStakeholder' && l[k] === null));
}

/** The first answer with what it left out taken from a second read of the same link. */
export function v2FillFrom(first: ReadV2Link, second: ReadV2Link): ReadV2Link {
  const out: ReadV2Link = { ...first };
  for (const k of FIELDS)
    if ((!given(first, k) || first[k] === null) && given(second, k)) Object.assign(out, { [k]: second[k] });
  return out;
}

/** The update body: the current link with only the given flags changed. */
export function v2MergeBody(current: ReadV2Link, f: V2LinkFlags, linkId = String(current.testLinkId)): Body {
  const base = v2BodyOf(current);
  const flags = v2LinkFields(f);
  const merged: Body = { ...base, ...flags };
  // new dates on an anytime link make it time bound, unless --slotwise says slot wise
  if ((f.start || f.end) && flags.accessTime === undefined && base.accessTime === 0) merged.accessTime = 1;
  if (merged.accessTime === 0) Object.assign(merged, { startDateTime: null, endDateTime: null });
  if (base.accessTime === 0 && merged.accessTime !== 0 && (!merged.startDateTime || !merged.endDateTime))
    throw new UsageError(
      '--start/--end: the link is open at any time and has no dates yet; give both --start and --end',
    );
  const missing = FIELDS.filter((k) => merged[k] === undefined);
  if (missing.length)
    throw new OutcomeError(
      `links update: the service's answers for test link ${linkId} left out ${missing.join(', ')}; v2's update ` +
        `replaces the whole link, so nothing was sent`,
      `try again, or give the value${missing.length > 1 ? 's' : ''} yourself ` +
        `(${missing.map((k) => WHOLE_BODY[k]).join(', ')})`,
    );
  if (merged.accessTime !== 0 && Date.parse(`${merged.endDateTime}Z`) <= Date.parse(`${merged.startDateTime}Z`))
    throw new UsageError(`--end: must be after the start (${merged.startDateTime})`);
  return merged;
}

export async function printV2Link(ctx: Context, link: Record<string, unknown>): Promise<void> {
  await new Printer(ctx).object(link, { fields: DETAIL });
}

export async function listLinksV2(ctx: Context, testId: string): Promise<void> {
  const { testLinks } = await (await v2Client(ctx)).listLinks(testId);
  await new Printer(ctx).list(testLinks as Array<Record<string, unknown>>, { columns: V2_LINK_COLUMNS });
}

export async function getLinkV2(ctx: Context, testId: string, linkId: string): Promise<void> {
  await printV2Link(ctx, await (await v2Client(ctx)).getLink(testId, linkId));
}

export async function createLinkV2(ctx: Context, testId: string, f: V2LinkFlags): Promise<void> {
  const body = v2CreateBody(f);
  const link = await (await v2Client(ctx)).createLink(testId, body);
  ctx.info(`Created test link ${link.testLinkId} '${link.testLinkName}' on test ${testId} (v2).`);
  await printV2Link(ctx, link);
}

export async function updateLinkV2(ctx: Context, testId: string, linkId: string, f: V2LinkFlags): Promise<void> {
  const keys = [
    'name',
    'status',
    'type',
    'proctoring',
    'stakeholders',
    'validDays',
    'start',
    'end',
    'slotwise',
    'tz',
    'anytime',
  ] as const;
  if (!keys.some((k) => f[k] !== undefined))
    throw new UsageError(
      'links update: nothing to change; give at least one of --name, --status, --type, --proctoring, --stakeholders, ' +
        '--start, --end, --slotwise, --tz, --anytime',
    );
  v2LinkFields(f); // refuse flags v2 cannot express before anything is sent
  const api = await v2Client(ctx);
  const first = await api.getLink(testId, linkId);
  const current = v2AnswerIncomplete(first) ? v2FillFrom(first, await api.getLink(testId, linkId)) : first;
  const before = v2BodyOf(current);
  const body = v2MergeBody(current, f, linkId);
  const changes = diffObjects(before, body);
  if (!changes.length) {
    ctx.info(`No changes: test link ${linkId} already has these values; nothing was sent.`);
    return printV2Link(ctx, current);
  }
  const updated = await api.updateLink(testId, linkId, body);
  ctx.info(`Updated test link ${linkId} (v2):\n${formatChanges(changes)}`);
  await printV2Link(ctx, updated);
}
