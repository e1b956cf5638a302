// links migrate: reads the test's v2 links, shows the equivalent v3 link objects (mapping in
// shared/migrate-map.ts), and with --apply creates the missing ones through v3, printing old id →
// new id. Links whose name v3 already has are never created again.
import { ApiError, NetworkError } from '../../api/errors.js';
import type { V3Client } from '../../api/v3.js';
import type { Run } from '../../cli/command.js';
import type { Context } from '../../context.js';
import { PartialFailureError } from '../../errors.js';
import { Printer } from '../../output/printer.js';
import { plural } from '../../util/plural.js';
import { v2Client } from '../shared/v2/client.js';
import type migrate from './migrate.js';
import { MIGRATION_COLUMNS, MIGRATION_FIELDS } from './migrate.js';
import type { MigrationRow } from './shared/migrate-map.js';

export const run: Run<typeof migrate> = async (ctx, { testId, apply, anytimeDays }) => {
  const { testLinks } = await (await v2Client(ctx)).listLinks(testId);
  const v3 = await ctx.api();
  const existing = (await v3.listLinks(testId)).testLinks;
  const { planMigration } = await import('./shared/migrate-map.js'); // its request schema is built then
  const rows = planMigration(testLinks, existing, anytimeDays);
  if (apply) await create(v3, testId, rows);
  await new Printer(ctx).list(rows as unknown as Array<Record<string, unknown>>, {
    columns: MIGRATION_COLUMNS,
    fields: MIGRATION_FIELDS,
  });
  summarise(ctx, rows, apply);
};

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
