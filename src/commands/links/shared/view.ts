// One choice of columns for test links, shared by list, get, create and update. Keys are the
// service's field names (dotted for nested), so CSV headers and --json read like the API.
import type { TestLink as ReadLink, WrittenLink } from '../../../api/read/v3.js';
import * as wire from '../../../api/schemas/links.js';
import { fieldsOf } from '../../../cli/json-fields.js';
import type { Context } from '../../../context.js';
import { Printer, type Column } from '../../../output/printer.js';

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
  // a window shown whole or not at all: never Start without End
  { key: `${SCHEDULE}.startDateTime`, header: 'Start', kind: 'date', priority: 5, group: 'window' },
  { key: `${SCHEDULE}.endDateTime`, header: 'End', kind: 'date', priority: 5, group: 'window' },
  { key: `${SCHEDULE}.timeZoneId`, header: 'TZ', priority: 8 },
];

/** Every top-level field `--json a,b` may pick for a link: the wire schema's fields. */
export const LINK_FIELDS = fieldsOf(wire.TestLink);

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
  ...LINK_COLUMNS.slice(5).map((c) => ({ ...c, header: c.header === 'TZ' ? 'Time zone' : c.header === 'Days' ? 'Valid days' : c.header })),
];

export async function printLink(ctx: Context, link: ReadLink | WrittenLink): Promise<void> {
  const fields = LINK_FIELDS;
  new Printer(ctx).object(link as Record<string, unknown>, { fields: DETAIL }, [...new Set([...fields, ...Object.keys(link)])]);
}
