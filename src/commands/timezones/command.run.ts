// `assess timezones [--search TEXT]`: the service's time zones with their ids, so nobody has to
// guess what --tz 35 means; --tz also takes a name from this list.
import type { Run } from '../../cli/command.js';
import { Printer } from '../../output/printer.js';
import { matchZones, timeZones } from '../shared/timezone.js';
import type timezones from './command.js';
import { COLUMNS } from './command.js';

export const run: Run<typeof timezones> = async (ctx, { search, refresh }) => {
  const zones = await timeZones(ctx, { fresh: refresh });
  const rows = search ? matchZones(zones, search) : zones;
  await new Printer(ctx).list(rows as Array<Record<string, unknown>>, {
    columns: COLUMNS,
    fields: COLUMNS.map((c) => c.key),
  });
};
