// `assess report stats --from T [--to T] [--state S] [--test ID]`: the cohort of a window in
// numbers. Lists the attempts the way `report export` does (operation 15; all three states for
// the funnel), fetches each report of --state (operation 4, both sections and skills) with
// bounded concurrency, and prints charts on a terminal or the numbers (--json, --csv). It writes
// no file, so it keeps no journal: a re-run simply asks again.
import * as z from 'zod/mini';
import { ATTEMPT_STATES } from '../../api/wire-constants.js';
import { bulkClient, defaultConcurrency } from '../../bulk/client.js';
import { Progress, progressMode } from '../../bulk/progress.js';
import { defineCommand, zx, flag } from '../../cli/command.js';
import { CancelledError, PartialFailureError } from '../../errors.js';
import { writePaged } from '../../output/pager.js';
import { Printer } from '../../output/printer.js';
import { wantsAscii } from '../../output/bars.js';
import { timeArg } from '../../util/time.js';
import { fetchReports, listCohort } from './shared/cohort.js';
import { cohortStats, funnelOf } from './shared/stats.js';
import { displayZone } from '../../output/local-time.js';
import { metricRows, renderStats, STATS_FIELDS, type MetricRow, type StatsReport } from './shared/stats-view.js';

const METRIC_COLUMNS = [
  { key: 'metric', header: 'Metric' },
  { key: 'name', header: 'Name' },
  { key: 'value', header: 'Value' },
] as const;

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
  async run(ctx, input) {
    const from = input.from!;
    const to = input.to ?? timeArg('past').parse('now');
    const client = await bulkClient(ctx);
    const concurrency = input.concurrency ?? (await defaultConcurrency(ctx));
    // The API lists attempts by end state only: the funnel is built from all three listings.
    const [completed, cancelled, expired] = await Promise.all(
      ATTEMPT_STATES.map((s) => listCohort(client, s, from, to, input.test)),
    );
    const attempts = { completed, cancelled, expired }[input.state]!;
    // a cohort of thousands takes a while: a bar on a terminal, a line every 10 s in a log
    const progress = new Progress({
      stream: ctx.io.stderr,
      mode: progressMode(ctx.io, ctx.globals.quiet === true),
      total: attempts.length,
      label: 'Fetching reports',
    });
    let fetched: Awaited<ReturnType<typeof fetchReports>>;
    try {
      fetched = await fetchReports(client, attempts, {
        concurrency,
        signal: ctx.signal,
        reportType: 3,
        onSettled: () => progress.tick(),
      });
    } finally {
      progress.stop();
    }
    const { reports, failures } = fetched;
    if (ctx.signal.aborted) throw new CancelledError();
    for (const f of failures.slice(0, 5)) ctx.warn(`report ${String(f.testInvitationId)}: ${f.error.message}`);
    if (failures.length > 5) ctx.warn(`… and ${failures.length - 5} more report(s) not fetched`);

    const stats: StatsReport = {
      state: input.state,
      from,
      to,
      testId: input.test ?? null,
      ...cohortStats(reports, attempts.length, failures.length),
      funnel: funnelOf(completed, cancelled, expired),
    };
    const ordered = Object.fromEntries(STATS_FIELDS.map((k) => [k, stats[k]])) as unknown as StatsReport;
    const { output, query } = ctx.globals;
    const printer = new Printer(ctx);
    if (output === 'table' && !query)
      // more than a screen: through the pager like other long terminal output
      await writePaged(
        ctx,
        renderStats(ordered, {
          columns: ctx.io.columns,
          style: ctx.io.style,
          ascii: wantsAscii(ctx.env, input.ascii),
          zone: displayZone(ctx.env),
        }),
      );
    else if ((output === 'csv' || output === 'tsv') && !query)
      await printer.list<MetricRow>(metricRows(ordered), { columns: METRIC_COLUMNS });
    else await printer.object(ordered, { fields: [] }, STATS_FIELDS);

    if (failures.length)
      throw new PartialFailureError(
        `${failures.length} of ${attempts.length} report(s) could not be fetched; the statistics leave them out`,
        failures.length,
        attempts.length,
      );
  },
});
