// `assess report stats`: lists the attempts the way `report export` does (all three states for
// the funnel), fetches each report of --state (both sections and skills) with bounded
// concurrency, and prints charts on a terminal or the numbers (--json, --csv). It writes no
// file, so it keeps no journal: a re-run simply asks again.
import type { V3Client } from '../../api/v3.js';
import { ATTEMPT_STATES } from '../../api/wire-constants.js';
import { bulkClient, defaultConcurrency } from '../../bulk/client.js';
import { Progress, progressMode } from '../../bulk/progress.js';
import type { Run } from '../../cli/command.js';
import type { Context } from '../../context.js';
import { CancelledError, PartialFailureError } from '../../errors.js';
import { wantsAscii } from '../../output/bars.js';
import { displayZone } from '../../output/local-time.js';
import { writePaged } from '../../output/pager.js';
import { Printer } from '../../output/printer.js';
import { plural } from '../../util/plural.js';
import { timeArg } from '../../util/time.js';
import type statsCommand from './stats.js';
import { fetchReports, listCohort, type FetchedReports } from './shared/cohort.js';
import { cohortStats, funnelOf } from './shared/stats.js';
import { metricRows, renderStats, STATS_FIELDS, type MetricRow, type StatsReport } from './shared/stats-view.js';

const METRIC_COLUMNS = [
  { key: 'metric', header: 'Metric' },
  { key: 'name', header: 'Name' },
  { key: 'value', header: 'Value' },
] as const;

export const run: Run<typeof statsCommand> = async (ctx, input) => {
  const from = input.from!;
  const to = input.to ?? timeArg('past').parse('now');
  const client = await bulkClient(ctx);
  const concurrency = input.concurrency ?? (await defaultConcurrency(ctx));
  // The API lists attempts by end state only: the funnel is built from all three listings.
  const [completed, cancelled, expired] = await Promise.all(
    ATTEMPT_STATES.map((s) => listCohort(client, s, from, to, input.test)),
  );
  const attempts = { completed, cancelled, expired }[input.state]!;
  const { reports, failures } = await fetchWithProgress(ctx, client, attempts, concurrency);
  if (ctx.signal.aborted) throw new CancelledError();
  for (const f of failures.slice(0, 5)) ctx.warn(`report ${String(f.testInvitationId)}: ${f.error.message}`);
  if (failures.length > 5) ctx.warn(`… and ${plural(failures.length - 5, 'more report')} not fetched`);

  const stats: StatsReport = {
    state: input.state,
    from,
    to,
    testId: input.test ?? null,
    ...cohortStats(reports, attempts.length, failures.length),
    funnel: funnelOf(completed, cancelled, expired),
  };
  const ordered = Object.fromEntries(STATS_FIELDS.map((k) => [k, stats[k]])) as unknown as StatsReport;
  await printStats(ctx, ordered, input.ascii);

  if (failures.length)
    throw new PartialFailureError(
      `${failures.length} of ${plural(attempts.length, 'report')} could not be fetched; the statistics leave ` +
        `${failures.length === 1 ? 'it' : 'them'} out`,
      failures.length,
      attempts.length,
    );
};

/**
 * The reports of --state's attempts: a cohort of thousands takes a while, so a bar on a terminal, a line every 10 s in
 * a log.
 */
async function fetchWithProgress(
  ctx: Context,
  client: V3Client,
  attempts: Array<Record<string, unknown>>,
  concurrency: number,
): Promise<FetchedReports> {
  const progress = new Progress({
    stream: ctx.io.stderr,
    mode: progressMode(ctx.io, ctx.globals.quiet === true),
    total: attempts.length,
    label: 'Fetching reports',
  });
  try {
    return await fetchReports(client, attempts, {
      concurrency,
      signal: ctx.signal,
      reportType: 3,
      onSettled: () => progress.tick(),
    });
  } finally {
    progress.stop();
  }
}

/**
 * The statistics, their fields in STATS_FIELDS order: charts on a terminal, metric rows in CSV and TSV, else one
 * object.
 */
async function printStats(ctx: Context, ordered: StatsReport, ascii: boolean): Promise<void> {
  const { output, query } = ctx.globals;
  const printer = new Printer(ctx);
  if (output === 'table' && !query)
    // more than a screen: through the pager like other long terminal output
    await writePaged(
      ctx,
      renderStats(ordered, {
        columns: ctx.io.columns,
        style: ctx.io.style,
        ascii: wantsAscii(ctx.env, ascii),
        zone: displayZone(ctx.env),
      }),
    );
  else if ((output === 'csv' || output === 'tsv') && !query)
    await printer.list<MetricRow>(metricRows(ordered), { columns: METRIC_COLUMNS });
  else await printer.object(ordered, { fields: [] }, STATS_FIELDS);
}
