// `assess timezones [--search TEXT]`: the service's time zones with their ids (./command.run.ts).
import * as z from 'zod/mini';
import { defineCommand, flag } from '../../cli/command.js';
import { fieldsOf } from '../../cli/json-fields.js';
import type { Column } from '../../output/printer.js';

export const COLUMNS: Column[] = [
  { key: 'timeZoneId', header: 'Id', priority: 1, kind: 'id' },
  { key: 'name', header: 'Name', priority: 3 },
  { key: 'utcOffset', header: 'UTC offset', priority: 2 },
  { key: 'displayName', header: 'Description', priority: 4 },
];

export default defineCommand({
  name: 'timezones',
  description: 'List the time zones of the service (id, name, offset); --tz takes an id or a name from this list',
  examples: [
    'assess timezones',
    'assess timezones --search kolkata',
    'assess timezones --search "us & canada" --json timeZoneId,name',
  ],
  flags: {
    search: flag('only zones whose name or description contains this text (any case)', { value: 'text' }, () =>
      z.optional(z.string().check(z.trim(), z.minLength(1, 'must not be empty, e.g. --search kolkata'))),
    ),
    refresh: flag('ask the service again instead of using the list kept for a day', () => z.optional(z.boolean())),
  },
  jsonFields: fieldsOf(COLUMNS),
  v2: { unsupported: 'v2 has no time-zone list' },
  showsAnswer: true,
  handler: () => import('./command.run.js'),
});
