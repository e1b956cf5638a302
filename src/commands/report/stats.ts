// `assess report stats --from T [--to T] [--state S] [--test ID]`: the cohort of a window in
// numbers, charts on a terminal (./stats.run.ts).
import * as z from 'zod/mini';
import { ATTEMPT_STATES } from '../../api/wire-constants.js';
import { defineCommand, zx, flag } from '../../cli/command.js';
import { timeArg } from '../../util/time.js';
import { STATS_FIELDS } from './shared/stats-view.js';

export default defineCommand({
  name: 'stats',
  description:
    'Statistics of the attempts in a time window: score spread, histogram, sections, skills, funnel, time used',
  examples: [
    'assess --sandbox report stats --from 30d',
    'assess report stats --from 2026-03-01 --to 2026-04-01 --test 1001',
    'assess report stats --from 7d --json score,histogram',
    'assess report stats --from 30d --csv > stats.csv   # metric,name,value rows',
  ],
  flags: {
    state: flag('whose reports: completed (default), cancelled or expired', { value: 'state' }, () =>
      z._default(
        z.enum(ATTEMPT_STATES, { message: 'must be completed, cancelled or expired, e.g. --state completed' }),
        'completed',
      ),
    ),
    from: flag(
      'window start: YYYY-MM-DD, ISO 8601 or relative (-7d, "7d ago", yesterday; a bare 7d also counts back)',
      { value: 'T' },
      () => z.optional(timeArg('past')),
    ),
    to: flag('window end (default now)', { value: 'T' }, () => z.optional(timeArg('past'))),
    test: flag("only this test's attempts", { value: 'testId' }, () => z.optional(zx.id('1001'))),
    concurrency: flag('reports fetched at once (default: profile concurrency, else 8)', { value: 'n' }, () =>
      z.optional(zx.int(1, 64, 8)),
    ),
    ascii: flag('draw the charts with # and . (also with TERM=dumb)', () => z._default(z.boolean(), false)),
  },
  check: (v, ctx) => {
    if (!v.from)
      ctx.addIssue({ code: 'custom', path: ['from'], message: 'is required, e.g. --from 7d or --from 2026-03-01' });
    if (v.from && v.to && Date.parse(v.to) <= Date.parse(v.from))
      ctx.addIssue({ code: 'custom', path: ['to'], message: `must be after --from (${v.from})` });
  },
  jsonFields: () => STATS_FIELDS,
  v2: { unsupported: 'it lists attempts by state, which v2 cannot' },
  handler: () => import('./stats.run.js'),
});
