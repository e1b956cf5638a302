// What the links declarations need of v2 (loaded without the v2 side): the v2 link's fields for
// --json, and the check of --anytime.
import type * as z from 'zod/mini';
import { fieldsOfAnswer } from '../../../cli/json-fields.js';
import type { Column } from '../../../output/printer.js';
import type { ResolvedLinkFlags } from './body.js';

export type V2LinkFlags = ResolvedLinkFlags & { anytime?: boolean };

export const V2_LINK_COLUMNS: Column[] = [
  { key: 'testLinkId', header: 'Link ID', priority: 1, kind: 'id' },
  { key: 'testLinkName', header: 'Name', priority: 2 },
  { key: 'testLinkStatus', header: 'Status (1/3)', priority: 3 },
  { key: 'accessTime', header: 'Access (0/1/2)', priority: 4 },
  { key: 'startDateTime', header: 'Start', kind: 'date', priority: 5 },
  { key: 'endDateTime', header: 'End', kind: 'date', priority: 6 },
  // v2 has no list of zones to name it by
  { key: 'timeZoneId', header: 'Time zone id', priority: 7 },
  { key: 'inviteCandidateOnly', header: 'Invited only', priority: 8 },
  { key: 'imageProctoring', header: 'Image proctoring', priority: 9 },
];

export const DETAIL: Column[] = [
  ...V2_LINK_COLUMNS.slice(0, 2),
  { key: 'testId', header: 'Test ID', kind: 'id' },
  { key: 'testLinkAccessKey', header: 'Access key' },
  ...V2_LINK_COLUMNS.slice(2),
  { key: 'emailToStakeholder', header: 'Stakeholders' },
];

/** What `links list|get|create|update --api v2 --json a,b` may name: the v2 link's wire fields. */
export const V2_LINK_FIELDS = fieldsOfAnswer('v2.getLink', DETAIL);

/** `--anytime` (v2 accessTime 0) excludes every other schedule flag; create still needs a name. */
export function refineAnytime(
  v: Pick<V2LinkFlags, 'validDays' | 'start' | 'end' | 'slotwise' | 'name'>,
  c: z.core.$RefinementCtx,
  mode: 'create' | 'update',
): void {
  const issue = (path: string, message: string) => c.addIssue({ code: 'custom', path: [path], message });
  for (const k of ['validDays', 'start', 'end', 'slotwise'] as const)
    if (v[k] !== undefined) issue(k, 'cannot be combined with --anytime (a link open at any time has no schedule)');
  if (mode === 'create' && !v.name) issue('name', 'is required, e.g. --name "Campus 2026"');
}
