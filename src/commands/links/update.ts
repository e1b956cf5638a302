// links update: only what the flags name changes; the rest of the link is kept (./update.run.ts).
import * as z from 'zod/mini';
import { arg, defineCommand, flag, zx } from '../../cli/command.js';
import { linkFlags, refineLinkFlags } from './shared/body.js';
import { LINK_FIELDS } from './shared/view.js';
import { refineAnytime, V2_LINK_FIELDS } from './shared/v2-fields.js';

export default defineCommand({
  name: 'update',
  args: { testId: arg(() => zx.id('1001')), linkId: arg(() => zx.id('2001')) },
  description: 'Change a test link: only the flags given change; the rest is kept. Shows what changed on stderr',
  examples: [
    'assess links update 1001 5003 --status inactive',
    'assess links update 1001 5003 --end 30d --stakeholders hr@example.com --json',
    'assess links update 1001 5003 --valid-days 14',
  ],
  flags: {
    ...linkFlags('update'),
    anytime: flag('v2 only (--api v2): open at any time, no schedule (accessTime 0)', () => z.optional(z.boolean())),
  },
  check: (v, c) => (v.anytime ? refineAnytime(v, c, 'update') : refineLinkFlags(v, c, 'update')),
  jsonFields: LINK_FIELDS,
  v2: {
    jsonFields: V2_LINK_FIELDS,
    only: { anytime: 'v3 links always have a schedule; the closest: --valid-days 3650' },
  },
  handler: () => import('./update.run.js'),
});
