// invite: one candidate through the single form's handler, or with --from-csv one per row through
// the bulk machinery (loaded only then); the old `--csv FILE` spelling is said and still read.
import { loadHandler, v2Refusal, type Run } from '../../cli/command.js';
import { resolveTz } from '../shared/timezone.js';
import type invite from './command.js';
import single from './shared/single.js';
import { inviteV2 } from './shared/v2.js';

export const run: Run<typeof invite> = async (ctx, input) => {
  if (input.mode === 'single') return (await loadHandler(single)).run(ctx, input.single);
  const b = input.bulk;
  if (input.fromOperand) {
    ctx.info(
      `note: --csv ${b.csv} is read as --from-csv ${b.csv} (the old spelling; --csv alone is the output format)`,
    );
    // that --csv named the input: the summary is not asked for as CSV
    ctx.globals.output = ctx.io.stdoutIsTTY ? 'table' : 'tsv';
  }
  // the bulk machinery (CSV reader, journal, pool) is loaded now, not with the command
  const { runBulkInvite } = await import('./shared/bulk.js');
  return runBulkInvite(ctx, {
    testId: b.testId,
    csv: b.csv,
    columns: b.columns,
    skipInvalid: b.skipInvalid,
    dryRun: b.dryRun,
    concurrency: b.concurrency,
    rate: b.rate,
    journal: b.journal,
    results: b.results,
    // the defaults are every row's values as typed: a --tz name goes in as its id, in digits, as a
    // timeZoneId column would
    defaults: {
      ...input.defaults,
      ...(input.defaults.tz !== undefined ? { tz: String(await resolveTz(ctx, input.defaults.tz as string)) } : {}),
    },
  });
};

export const runV2: Run<typeof invite> = async (ctx, input) => {
  if (input.mode === 'bulk')
    throw v2Refusal(ctx, 'invite --from-csv', 'v2 registers one candidate per call; bulk invitations need v3');
  return inviteV2(ctx, input.single);
};
