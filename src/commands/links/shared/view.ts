// One choice of columns for test links, shared by list, get, create and update. Keys are the
// service's field names (dotted for nested), so CSV headers and --json read like the API.
import type { TestLink as ReadLink, WrittenLink } from '../../../api/read/v3.js';
import { fieldsOfAnswer } from '../../../cli/json-fields.js';
import type { Context } from '../../../context.js';
import { Printer, type Column } from '../../../output/printer.js';
import { getPath } from '../../../output/values.js';
import { utcMinutes } from '../../../util/utc-text.js';
import { noteEmbeddedUrls } from '../../shared/live-sandbox.js';
import { timeZones } from '../../shared/timezone.js';

const SCHEDULE = 'invitationSchedule.scheduleDetails';

export const LINK_COLUMNS: Column[] = [
  { key: 'testLinkId', header: 'Link ID', priority: 1, kind: 'id' },
  { key: 'testLinkName', header: 'Name', priority: 2 },
  { key: 'testLinkStatus', header: 'Status', priority: 3, kind: 'status' },
  // when it is open matters more than how (Type, Proctoring) on a narrow terminal
  { key: 'invitationType', header: 'Type', priority: 7 },
  { key: 'proctoringSettings.proctoringMode', header: 'Proctoring', priority: 9 },
  { key: 'invitationSchedule.scheduleType', header: 'Schedule', priority: 4 },
  { key: `${SCHEDULE}.invitationValidityInDays`, header: 'Days', priority: 6 },
  // a window shown whole or not at all: never Start without End. In UTC, said in the heading
  // (the link's own zone stands beside it): see forTable()
  { key: `${SCHEDULE}.startDateTime`, header: 'Start (UTC)', kind: 'date', priority: 5, group: 'window' },
  { key: `${SCHEDULE}.endDateTime`, header: 'End (UTC)', kind: 'date', priority: 5, group: 'window' },
  { key: `${SCHEDULE}.timeZoneId`, header: 'TZ', priority: 8 },
];

const DETAIL: Column[] = [
  { key: 'testLinkId', header: 'Link ID', priority: 1, kind: 'id' },
  { key: 'testId', header: 'Test ID', kind: 'id' },
  { key: 'testLinkName', header: 'Name', priority: 2 },
  { key: 'testLink', header: 'Link token' },
  { key: 'testLinkStatus', header: 'Status', priority: 3, kind: 'status' },
  { key: 'invitationType', header: 'Type', priority: 4 },
  { key: 'isApiLink', header: 'API link' },
  { key: 'proctoringSettings.proctoringMode', header: 'Proctoring', priority: 9 },
  { key: 'stakeholderEmails', header: 'Stakeholders' },
  ...LINK_COLUMNS.slice(5).map((c) => ({
    ...c,
    header: c.header === 'TZ' ? 'Time zone' : c.header === 'Days' ? 'Valid days' : c.header,
  })),
];

/** Every top-level field `--json a,b` may pick for a link: the wire object's fields. */
export const LINK_FIELDS = fieldsOfAnswer('v3.getLink', DETAIL);

const TZ_KEY = `${SCHEDULE}.timeZoneId`;
const WINDOW_KEYS = new Set([`${SCHEDULE}.startDateTime`, `${SCHEDULE}.endDateTime`]);

/**
 * The columns as a table shows them: the window's times in UTC, as the service gives them and
 * --start/--end read them, not in this machine's zone (the printer's way with dates), which
 * beside the link's own "Time zone" would be a third zone, unnamed. Machine formats keep the ISO text.
 */
export function forTable(ctx: Context, columns: readonly Column[]): Column[] {
  if (ctx.globals.output !== 'table') return [...columns];
  return columns.map((c) =>
    WINDOW_KEYS.has(c.key) ? { ...c, value: (row: Record<string, unknown>) => utcCell(getPath(row, c.key)) } : c,
  );
}

const utcCell = (v: unknown) => (typeof v === 'string' ? (utcMinutes(v) ?? v) : v);

export async function printLink(ctx: Context, link: ReadLink | WrittenLink): Promise<void> {
  const fields = await LINK_FIELDS();
  const row = link as Record<string, unknown>;
  let detail: Column[] = DETAIL;
  if (ctx.globals.output === 'table' || ctx.globals.output === 'tsv') {
    // for people: the zone's name beside its id, and the URL to hand out for an open link
    const zone = ctx.globals.output === 'table' ? await zoneName(ctx, link) : undefined;
    const share = await shareUrl(ctx, link);
    detail = forTable(ctx, DETAIL).flatMap((c) => [
      c.key === TZ_KEY && zone ? { ...c, value: () => zone } : c,
      ...(c.key === 'invitationType' && share ? [{ key: 'shareUrl', header: 'Share URL', value: () => share }] : []),
    ]);
    if (share) await noteEmbeddedUrls(ctx);
  }
  await new Printer(ctx).object(row, { fields: detail }, [...new Set([...fields, ...Object.keys(link)])]);
}

/** `Asia/Kolkata (35)` for the link's zone id, from the (cached) zone list; nothing when it cannot be had. */
async function zoneName(ctx: Context, link: ReadLink | WrittenLink): Promise<string | undefined> {
  const id = (link as { invitationSchedule?: { scheduleDetails?: { timeZoneId?: unknown } } }).invitationSchedule
    ?.scheduleDetails?.timeZoneId;
  if (id === undefined || id === null) return undefined;
  try {
    const zone = (await timeZones(ctx)).find((z) => String(z.timeZoneId) === String(id));
    return zone?.name || zone?.displayName ? `${zone.name || zone.displayName} (${String(id)})` : undefined;
  } catch {
    return undefined; // the id alone, as before
  }
}

/**
 * Where candidates open an open link. The service answers only the link's token (`testLink`), not
 * the platform's address; the sandbox serves the token at /link/<token>. Elsewhere: none.
 */
async function shareUrl(ctx: Context, link: ReadLink | WrittenLink): Promise<string | undefined> {
  const l = link as { invitationType?: unknown; testLink?: unknown };
  if (l.invitationType !== 'open' || typeof l.testLink !== 'string' || !l.testLink) return undefined;
  const conn = await ctx.connection();
  return conn.sandbox ? `${conn.baseUrl}/link/${encodeURIComponent(l.testLink)}` : undefined;
}
