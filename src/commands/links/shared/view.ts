// One choice of columns for test links, shared by list, get, create and update. Keys are the
// service's field names (dotted for nested), so CSV headers and --json read like the API.
import type { TestLink as ReadLink, TimeZone, WrittenLink } from '../../../api/read/v3.js';
import { fieldsOfAnswer } from '../../../cli/json-fields.js';
import type { Context } from '../../../context.js';
import { Printer, type Column } from '../../../output/printer.js';
import { getPath } from '../../../output/values.js';
import { noteEmbeddedUrls } from '../../shared/live-sandbox.js';
import { timeZones, zoneWithId } from '../../shared/timezone.js';

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
  // a window shown whole or not at all: never Start without End. On a terminal in this
  // machine's zone, named beside each time (the printer's way with dates)
  { key: `${SCHEDULE}.startDateTime`, header: 'Start', kind: 'date', priority: 5, group: 'window' },
  { key: `${SCHEDULE}.endDateTime`, header: 'End', kind: 'date', priority: 5, group: 'window' },
  // the link's own zone, for its candidates: by name on a terminal (see forTable)
  { key: `${SCHEDULE}.timeZoneId`, header: 'Time zone', priority: 8 },
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
  ...LINK_COLUMNS.slice(5).map((c) => ({ ...c, header: c.header === 'Days' ? 'Valid days' : c.header })),
];

/** Every top-level field `--json a,b` may pick for a link: the wire object's fields. */
export const LINK_FIELDS = fieldsOfAnswer('v3.getLink', DETAIL);

const TZ_KEY = `${SCHEDULE}.timeZoneId`;

/**
 * The columns as a table shows them: the link's time zone by name with its id beside it
 * (`Asia/Kolkata (id 35)`), from the service's (cached) list. Machine formats keep the id.
 */
export async function forTable(ctx: Context, columns: readonly Column[], rows: readonly object[]): Promise<Column[]> {
  if (ctx.globals.output !== 'table' || !rows.some((r) => getPath(r, TZ_KEY) != null)) return [...columns];
  const name = await zoneNamer(ctx);
  return columns.map((c) => (c.key === TZ_KEY ? { ...c, value: (row: object) => name(getPath(row, TZ_KEY)) } : c));
}

/** id → `Asia/Kolkata (id 35)`; `id 35` when the list does not name it or cannot be had. */
async function zoneNamer(ctx: Context): Promise<(id: unknown) => string | undefined> {
  let zones: TimeZone[] = [];
  try {
    zones = await timeZones(ctx);
  } catch {
    // the ids alone
  }
  return (id) => (id === undefined || id === null ? undefined : zoneWithId(zones, id));
}

export async function printLink(ctx: Context, link: ReadLink | WrittenLink): Promise<void> {
  const fields = await LINK_FIELDS();
  const row = link as Record<string, unknown>;
  let detail: Column[] = DETAIL;
  if (ctx.globals.output === 'table' || ctx.globals.output === 'tsv') {
    // for people: the zone's name beside its id, and the URL to hand out for an open link
    const share = await shareUrl(ctx, link);
    detail = (await forTable(ctx, DETAIL, [link])).flatMap((c) => [
      c,
      ...(c.key === 'invitationType' && share ? [{ key: 'shareUrl', header: 'Share URL', value: () => share }] : []),
    ]);
    if (share) await noteEmbeddedUrls(ctx);
  }
  await new Printer(ctx).object(row, { fields: detail }, [...new Set([...fields, ...Object.keys(link)])]);
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
