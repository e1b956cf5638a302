// `assess links migrate <testId> [--apply]`: reads the test's v2 links, shows the equivalent v3
// link objects (mapping in shared/migrate-map.ts), and with --apply creates the missing ones through v3,
// printing old id → new id. Links whose name v3 already has are never created again.
import * as z from 'zod/mini';
import { ApiError, NetworkError } from '../../api/errors.js';
import type { V3Client } from '../../api/v3.js';
import { defineCommand, zx, arg, flag } from '../../cli/command.js';
import { fieldsOf } from '../../cli/json-fields.js';
import type { Context } from '../../context.js';
import { PartialFailureError } from '../../errors.js';
import { Printer, type Column } from '../../output/printer.js';
import { v2Client } from '../shared/v2/client.js';
import { DEFAULT_ANYTIME_DAYS } from './shared/migrate-defaults.js';
import type { MigrationRow } from './shared/migrate-map.js';
import { plural } from '../../util/plural.js';

const COLUMNS: Column[] = [
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
const FIELDS = fieldsOf(
  ['v2TestLinkId', 'testLinkName', 'accessTime', 'scheduleType', 'action', 'v3TestLinkId', 'note', 'v3Link'],
  COLUMNS,
);

export default defineCommand({
  name: 'migrate',
  args: {
    testId: arg(() => zx.id('1001')),
  },
  description:
    'Show the v3 equivalent of every v2 test link of a test; --apply creates the missing ones through v3 and prints old id → new id (re-runs create nothing twice)',
  examples: [
    'assess links migrate 1001',
    'assess links migrate 1001 --json v2TestLinkId,v3Link',
    'assess links migrate 1001 --apply',
    'assess links migrate 1001 --apply --anytime-days 365',
  ],
  flags: {
    apply: flag('create the missing links through v3 (default: only show them)', () => z._default(z.boolean(), false)),
    anytimeDays: flag(
      `validity in days for v2 "anytime" links (accessTime 0), which v3 cannot express (default ${DEFAULT_ANYTIME_DAYS})`,
      { value: 'n' },
      () => z._default(zx.int(1, 3650, 365), DEFAULT_ANYTIME_DAYS),
    ),
  },
  jsonFields: FIELDS,
  async run(ctx, { testId, apply, anytimeDays }) {
    const { testLinks } = await (await v2Client(ctx)).listLinks(testId);
    const v3 = await ctx.api();
    const existing = (await v3.listLinks(testId)).testLinks;
    const { planMigration } = await import('./shared/migrate-map.js'); // its request schema is built then
    const rows = planMigration(testLinks, existing, anytimeDays);
    if (apply) await create(v3, testId, rows);
    await new Printer(ctx).list(rows as unknown as Array<Record<string, unknown>>, {
      columns: COLUMNS,
      fields: FIELDS,
    });
    summarise(ctx, rows, apply);
  },
});

async function create(v3: V3Client, testId: string, rows: MigrationRow[]) {
  for (const row of rows) {
    if (row.action !== 'create' || !row.v3Link) continue;
    try {
      const link = await v3.createLink(testId, row.v3Link);
      Object.assign(row, { action: 'created', v3TestLinkId: link.testLinkId });
    } catch (err) {
      if (!(err instanceof ApiError) && !(err instanceof NetworkError)) throw err;
      if (err instanceof ApiError && err.kind === 'auth') throw err;
      Object.assign(row, { action: 'failed', note: err.message });
    }
  }
}

function summarise(ctx: Context, rows: MigrationRow[], apply: boolean): void {
  const count = (a: MigrationRow['action']) => rows.filter((r) => r.action === a).length;
  const exists = count('exists');
  const parts = apply
    ? [`${count('created')} created`, `${exists} already in v3 (not created again)`]
    : [`${count('create')} to create (run again with --apply)`, `${exists} already in v3`];
  if (count('unmappable')) parts.push(`${count('unmappable')} cannot be mapped (see the note)`);
  if (count('failed')) parts.push(`${count('failed')} failed`);
  ctx.info(`${plural(rows.length, 'v2 link')}: ${parts.join(', ')}.`);
  if (count('failed'))
    throw new PartialFailureError(
      `${count('failed')} of ${plural(rows.length, 'link')} could not be created through v3`,
      count('failed'),
      rows.length,
    );
}
