// links create: a test link with its schedule, type and proctoring (./create.run.ts).
import * as z from 'zod/mini';
import { arg, defineCommand, flag, zx } from '../../cli/command.js';
import { linkFlags, refineLinkFlags } from './shared/body.js';
import { LINK_FIELDS } from './shared/view.js';
import { refineAnytime, V2_LINK_FIELDS } from './shared/v2-fields.js';

export default defineCommand({
  name: 'create',
  args: { testId: arg(() => zx.id('1001')) },
  description:
    'Create a test link. Schedule: --valid-days N (validityindays), or --start T --end T (timebound; with --slotwise ' +
    'only inside the daily window of their time parts), always with --tz ID',
  examples: [
    'assess links create 1001 --name "Campus 2026" --valid-days 7 --tz Asia/Kolkata   # a zone by name (or id: ' +
      'assess timezones)',
    'assess links create 1001 --name "Onsite" --type email --proctoring image --start 2026-03-01T09:00:00Z --end ' +
      '2026-03-05T17:00:00Z --slotwise --tz UTC',
    'assess links create 1001 --name "Panel" --stakeholders ' +
      'ann@example.com,bo@example.com --start now --end 3d --tz 1 --json',
  ],
  flags: {
    ...linkFlags('create'),
    anytime: flag('v2 only (--api v2): open at any time, no schedule (accessTime 0)', () => z.optional(z.boolean())),
  },
  check: (v, c) => (v.anytime ? refineAnytime(v, c, 'create') : refineLinkFlags(v, c, 'create')),
  jsonFields: LINK_FIELDS,
  tzFromProfile: (raw) => raw.validDays !== undefined || raw.start !== undefined || raw.end !== undefined,
  v2: {
    jsonFields: V2_LINK_FIELDS,
    only: { anytime: 'v3 links always have a schedule; the closest: --valid-days 3650 --tz ID' },
  },
  handler: () => import('./create.run.js'),
});
