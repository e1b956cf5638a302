// `assess invite <testId>`: one candidate (shared/single.ts) or, with --csv, one per row (shared/bulk.ts).
// Both share the single-invite flags; in bulk they are defaults for every row.
import { Option } from 'commander';
import * as z from 'zod';
import { defineCommand, v2Refusal, zx } from '../../cli/command.js';
import { wrappedHelp } from '../../cli/help-text.js';
import type { FieldList } from '../../cli/json-fields.js';
import { UsageError } from '../../errors.js';
import { DRY_RUN_FIELDS, SUMMARY_FIELDS } from '../../bulk/summary-fields.js';
import { RATE_HELP, rateFlag } from '../../bulk/rate-flag.js';
import { inviteSchema } from './shared/body.js';
import single from './shared/single.js';
import { resolveTz } from '../shared/timezone.js';
import { inviteV2, v2InviteFields } from './shared/v2.js';

const BULK_ONLY = ['skipInvalid', 'concurrency', 'rate', 'dryRun', 'journal', 'results'] as const;
/** Single-invite flags that make sense as a default for every CSV row. */
const ROW_DEFAULTS = [
  'link',
  'callbackUrl',
  'redirectUrl',
  'sendEmail',
  'stakeholders',
  'start',
  'end',
  'tz',
  'proctoring',
  'imageProctoring',
  'hideInstructions',
];

export const bulkSchema = z
  .object({
    testId: zx.id('1001'),
    csv: z.string().min(1, 'must name a CSV file, or - for standard input'),
    skipInvalid: z.boolean().default(false),
    dryRun: z.boolean().default(false),
    concurrency: zx.int(1, 64, 8).optional(),
    rate: rateFlag().optional(),
    journal: z.string().min(1, 'must name a file').optional(),
    results: z.string().min(1, 'must name a file').optional(),
    email: z.undefined({ error: 'cannot be used with --from-csv: each row gives its own e-mail' }).optional(),
    name: z.undefined({ error: 'cannot be used with --from-csv: each row gives its own name' }).optional(),
    mandatoryFields: z.literal(true, { error: 'cannot be used with --from-csv: every row needs an e-mail and a name' }).default(true),
  })
  .loose()
  .superRefine((v, ctx) => {
    if (v.journal && v.results && v.journal === v.results) ctx.addIssue({ code: 'custom', path: ['results'], message: 'must differ from --journal' });
  });

type Input =
  | { mode: 'single'; single: z.infer<typeof inviteSchema> }
  | { mode: 'bulk'; bulk: z.infer<typeof bulkSchema>; defaults: Record<string, unknown>; fromOperand: boolean };

function forward(issues: z.core.$ZodIssue[], ctx: z.RefinementCtx): never {
  for (const i of issues) ctx.addIssue({ code: 'custom', message: i.message, path: i.path as PropertyKey[] as (string | number)[] });
  return z.NEVER as never;
}

const schema = z
  .record(z.string(), z.unknown())
  .transform((raw, ctx): Input => {
    // The program's global --csv (output format) is a flag and is parsed before ours, so
    // `invite 1001 --csv FILE` reaches us as --csv plus an operand; run() checks the flag was given.
    if (raw.fromCsv !== undefined) {
      if (raw.csvFile !== undefined)
        return forward(
          [
            {
              code: 'custom',
              path: ['fromCsv'],
              message: `give the CSV once (--from-csv ${String(raw.fromCsv)}), not also as an argument`,
              input: raw.csvFile,
            } as z.core.$ZodIssue,
          ],
          ctx,
        );
      const { fromCsv, ...rest } = raw;
      raw = { ...rest, csv: fromCsv, csvFlag: 'fromCsv' };
    }
    if (raw.csv === undefined && raw.csvFile !== undefined) raw = { ...raw, csv: raw.csvFile, csvFromOperand: true };
    if (raw.csv === undefined) {
      const stray = BULK_ONLY.find((k) => raw[k] !== undefined);
      if (stray) return forward([{ code: 'custom', path: [stray], message: 'needs --from-csv FILE', input: raw[stray] } as z.core.$ZodIssue], ctx);
      const r = inviteSchema.safeParse(raw);
      return r.success ? { mode: 'single', single: r.data } : forward(r.error.issues, ctx);
    }
    const r = bulkSchema.safeParse(raw);
    // a problem with the file is named by the flag the user typed (--from-csv, or the old --csv)
    const named = (issues: z.core.$ZodIssue[]) =>
      issues.map((i) => (i.path[0] === 'csv' && raw.csvFlag ? ({ ...i, path: ['fromCsv', ...i.path.slice(1)] } as z.core.$ZodIssue) : i));
    if (!r.success) return forward(named(r.error.issues), ctx);
    const defaults = Object.fromEntries(ROW_DEFAULTS.filter((k) => raw[k] !== undefined).map((k) => [k, raw[k]]));
    // The flags are checked once here (as if for one row), so a bad flag is a usage error up front.
    const probe = inviteSchema.safeParse({ ...defaults, testId: raw.testId, email: 'probe@example.com', name: 'Probe' });
    if (!probe.success) return forward(probe.error.issues, ctx);
    return { mode: 'bulk', bulk: r.data, defaults, fromOperand: raw.csvFromOperand === true };
  })
  .meta({ dispatchesTo: () => [inviteSchema, bulkSchema] }); // what completion reads the flags' values from

export default defineCommand({
  ...single,
  args: ['<testId>', '[csvFile]'],
  description: `${single.description}; with --from-csv, invite everyone listed in a CSV file`,
  examples: [
    ...single.examples,
    'assess invite 1001 --from-csv cohort.csv            # columns email,name[,callbackUrl,redirectUrl,startDateTime,endDateTime,timeZoneId,stakeholderEmails,link]',
    'assess invite 1001 --from-csv cohort.csv --dry-run  # validate every row, send nothing',
    'export-candidates | assess invite 1001 --from-csv - --concurrency 4 --results out.ndjson --json   # summary as JSON',
  ],
  options: (cmd) => {
    single.options?.(cmd);
    // `--from-csv FILE` is the input; `--csv` alone is the output format (a global flag), so the
    // old `--csv FILE` arrives as that flag plus an argument and still works, with a notice.
    cmd
      .usage('[options] <testId>')
      .option('--from-csv <file>', 'bulk: invite one candidate per row of this CSV file (- for standard input)')
      .addOption(new Option('--csv <file>').hideHelp())
      .option('--skip-invalid', 'bulk: send the valid rows even when some rows are bad (they are listed in the results)')
      .option('--concurrency <n>', 'bulk: most requests in flight at once (default: profile concurrency, else 8)')
      .option('--rate <N/s>', `bulk: ${RATE_HELP}`)
      .option('--dry-run', 'bulk: validate every row and report what would be sent; send nothing')
      .option('--journal <file>', 'bulk: journal of finished rows, for resuming (default <csv>.journal.ndjson)')
      .option('--results <file>', 'bulk: NDJSON results, one line per row (default beside the journal, or the CSV when the journal is a device)')
      .addHelpText(
        'after',
        // one paragraph: wrapped to the terminal's width when shown
        wrappedHelp(
          '\nResuming (--from-csv): a re-run skips the rows its journal lists as done. After Ctrl-C nothing is sent twice. ' +
            'After kill -9, the rows that were in flight (at most --concurrency) are sent again; after a power cut ' +
            'also rows finished in the last second. With --send-email those candidates may get a second e-mail: ' +
            'the re-run names them in a warning and marks them maybeEmailedTwice in the results (in-flight rows; ' +
            'rows lost with a power cut are not known). --concurrency 1 bounds kill -9 to one candidate.',
        ),
      );
  },
  schema: () => schema,
  // a single invitation with its own access window; bulk rows carry their own timeZoneId
  tzFromProfile: (raw) =>
    raw.link === undefined && raw.fromCsv === undefined && raw.csvFile === undefined && (raw.start !== undefined || raw.end !== undefined),
  // Bulk results go to a file (and a summary to stderr); the output flags apply to the run's summary.
  jsonFields: (input) => (input.mode === 'bulk' ? (input.bulk.dryRun ? DRY_RUN_FIELDS : SUMMARY_FIELDS) : single.jsonFields) as FieldList | undefined,
  v2: {
    run: async (ctx, input) => {
      if (input.mode === 'bulk') throw v2Refusal(ctx, 'invite --from-csv', 'v2 registers one candidate per call; bulk invitations need v3');
      return inviteV2(ctx, input.single);
    },
    jsonFields: (input) => (input.mode === 'single' ? v2InviteFields(input.single) : undefined),
  },
  async run(ctx, input) {
    if (input.mode === 'single') return single.run(ctx, input.single);
    const b = input.bulk;
    if (input.fromOperand && ctx.globals.output !== 'csv')
      throw new UsageError(`unexpected argument '${b.csv}'`, `to invite everyone in a CSV file: assess invite ${b.testId} --from-csv ${b.csv}`);
    if (input.fromOperand) {
      ctx.info(`note: --csv ${b.csv} is read as --from-csv ${b.csv} (the old spelling; --csv alone is the output format)`);
      // that --csv named the input: the summary is not asked for as CSV
      ctx.globals.output = ctx.io.stdoutIsTTY ? 'table' : 'tsv';
    }
    // the bulk machinery (CSV reader, journal, pool) is loaded now, not with the command
    const { runBulkInvite } = await import('./shared/bulk.js');
    return runBulkInvite(ctx, {
      testId: b.testId,
      csv: b.csv,
      skipInvalid: b.skipInvalid,
      dryRun: b.dryRun,
      concurrency: b.concurrency,
      rate: b.rate,
      journal: b.journal,
      results: b.results,
      defaults: { ...input.defaults, ...(input.defaults.tz !== undefined ? { tz: await resolveTz(ctx, input.defaults.tz as string | number) } : {}) },
    });
  },
});
