// `assess links migrate <testId> [--apply]`: the v3 equivalent of each of the test's v2 links, and
// with --apply the missing ones created through v3 (./migrate.run.ts).
import * as z from 'zod/mini';
import { defineCommand, zx, arg, flag } from '../../cli/command.js';
import { fieldsOf } from '../../cli/json-fields.js';
import type { Column } from '../../output/printer.js';
import { DEFAULT_ANYTIME_DAYS } from './shared/migrate-defaults.js';

export const MIGRATION_COLUMNS: Column[] = [
  { key: 'v2TestLinkId', header: 'v2 link', priority: 1, kind: 'id' },
  { key: 'testLinkName', header: 'Name', priority: 4 },
  { key: 'accessTime', header: 'accessTime', priority: 9 },
  { key: 'scheduleType', header: 'v3 schedule', priority: 6 },
  { key: 'v3Link.testLinkStatus', header: 'Status', priority: 7 },
  { key: 'v3Link.invitationType', header: 'Type', priority: 8 },
  { key: 'v3Link.proctoringSettings.proctoringMode', header: 'Proctoring', priority: 10 },
  { key: 'action', header: 'Action', priority: 2, kind: 'status' },
  { key: 'v3TestLinkId', header: 'v3 link', priority: 3, kind: 'id' },
  { key: 'note', header: 'Note', priority: 5 },
];

/** Every field `--json a,b` may pick: a migration row (the v3 link under v3Link). */
export const MIGRATION_FIELDS = fieldsOf(
  ['v2TestLinkId', 'testLinkName', 'accessTime', 'scheduleType', 'action', 'v3TestLinkId', 'note', 'v3Link'],
  MIGRATION_COLUMNS,
);

export default defineCommand({
  name: 'migrate',
  args: {
    testId: arg(() => zx.id('1001')),
  },
  description:
    'Show the v3 equivalent of every v2 test link of a test; --apply creates the missing ones through v3 and prints ' +
    'old id → new id (re-runs create nothing twice)',
  examples: [
    'assess links migrate 1001',
    'assess links migrate 1001 --json v2TestLinkId,v3Link',
    'assess links migrate 1001 --apply',
    'assess links migrate 1001 --apply --anytime-days 365',
  ],
  flags: {
    apply: flag('create the missing links through v3 (default: only show them)', () => z._default(z.boolean(), false)),
    anytimeDays: flag(
      `validity in days for v2 "anytime" links (accessTime 0), which v3 cannot express (default ` +
        `${DEFAULT_ANYTIME_DAYS})`,
      { value: 'n' },
      () => z._default(zx.int(1, 3650, 365), DEFAULT_ANYTIME_DAYS),
    ),
  },
  jsonFields: MIGRATION_FIELDS,
  handler: () => import('./migrate.run.js'),
});
