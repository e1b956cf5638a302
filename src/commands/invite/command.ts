// `assess invite <testId>`: one candidate (shared/single.ts) or, with --from-csv, one per row
// (shared/bulk.ts), dispatched by ./command.run.ts. Both share the single-invite flags; in bulk
// they are defaults for every row.
import * as z from 'zod/mini';
import { arg, defineCommand, flag, showValue, zx } from '../../cli/command.js';
import { declaredFields } from '../../cli/json-fields.js';
import { UsageError } from '../../errors.js';
import { DRY_RUN_FIELDS, INVITE_SUMMARY_FIELDS } from '../../bulk/summary-fields.js';
import { RATE_HELP, rateFlag } from '../../bulk/rate-flag.js';
import { INVITE_ARGS, INVITE_FLAGS, inviteSchema } from './shared/body.js';
import single from './shared/single.js';
import { v2InviteFields } from './shared/v2-fields.js';
import { parseColumnMap, type ColumnMap } from './shared/csv-header.js';
import { readAs } from '../../util/read-as.js';

/** The flags of a bulk run; without a CSV each of them is refused. */
const BULK_FLAGS = {
  // `--from-csv FILE` is the input; `--csv` alone is the output format (a global flag), so the
  // old `--csv FILE` arrives as that flag plus an argument and still works, with a notice.
  fromCsv: flag(
    'bulk: invite one candidate per row of this CSV file (- for standard input)',
    { value: 'file', stdin: ['-'] },
    () => z.optional(csvFile()),
  ),
  csv: flag('', { value: 'file', hidden: true, stdin: ['-'] }, () => z.optional(csvFile())),
  columns: flag(
    'bulk: which heading holds which column when the names are not found, e.g. "email=Mail,name=Nom complet"',
    { value: 'col=heading,…' },
    () => z.optional(columnsFlag()),
  ),
  skipInvalid: flag('bulk: send the valid rows even when some rows are bad (they are listed in the results)', () =>
    z._default(z.boolean(), false),
  ),
  concurrency: flag(
    'bulk: most requests in flight at once (default: profile concurrency, else 8)',
    { value: 'n' },
    () => z.optional(zx.int(1, 64, 8)),
  ),
  rate: flag(`bulk: ${RATE_HELP}`, { value: 'N/s' }, () => z.optional(rateFlag())),
  dryRun: flag('bulk: validate every row and report what would be sent; send nothing', () =>
    z._default(z.boolean(), false),
  ),
  journal: flag(
    "bulk: keep the journal of finished rows (for resuming) in this database file (default: the profile's store)",
    { value: 'file' },
    () => z.optional(z.string().check(z.minLength(1, 'must name a file'))),
  ),
  results: flag(
    'bulk: NDJSON results, one line per row (default <csv>.results.ndjson, or beside a --journal file)',
    { value: 'file' },
    () => z.optional(z.string().check(z.minLength(1, 'must name a file'))),
  ),
};
const BULK_ONLY = ['columns', 'skipInvalid', 'concurrency', 'rate', 'dryRun', 'journal', 'results'] as const;
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

/** `--columns email=E-mail,name=Full Name`: checked here, the headings when the file is read. */
const columnsFlag = () =>
  readAs((text, refuse): ColumnMap => {
    const map = parseColumnMap(text);
    return typeof map === 'string' ? refuse(map) : map;
  });

function csvFile() {
  return z.string().check(z.minLength(1, 'must name a CSV file, or - for standard input'));
}

/** A bulk run as validated (the CSV under the key it was given by: fromCsv or csv). */
function bulkObject(csvKey: 'fromCsv' | 'csv') {
  // the row defaults pass through as typed (a loose object): they are checked as one row, below
  return z
    .looseObject({
      testId: INVITE_ARGS.testId.schema(),
      [csvKey]: csvFile(),
      skipInvalid: BULK_FLAGS.skipInvalid.schema(),
      columns: BULK_FLAGS.columns.schema(),
      dryRun: BULK_FLAGS.dryRun.schema(),
      concurrency: BULK_FLAGS.concurrency.schema(),
      rate: BULK_FLAGS.rate.schema(),
      journal: BULK_FLAGS.journal.schema(),
      results: BULK_FLAGS.results.schema(),
      email: z.optional(z.undefined({ error: 'cannot be used with --from-csv: each row gives its own e-mail' })),
      name: z.optional(z.undefined({ error: 'cannot be used with --from-csv: each row gives its own name' })),
      mandatoryFields: z._default(
        z.literal(true, { error: 'cannot be used with --from-csv: every row needs an e-mail and a name' }),
        true,
      ),
    })
    .check(
      z.superRefine((v, ctx) => {
        if (v.journal && v.results && v.journal === v.results)
          return ctx.addIssue({ code: 'custom', path: ['results'], message: 'must differ from --journal' });
        // The row defaults are checked once here (as if for one row), so a bad flag is a usage error up front.
        const probe = inviteSchema().safeParse({
          ...rowDefaults(v),
          testId: v.testId,
          email: 'probe@example.com',
          name: 'Probe',
        });
        for (const i of probe.error?.issues ?? [])
          ctx.addIssue({ code: 'custom', path: i.path as (string | number)[], message: i.message });
      }),
    );
}

type Bulk = {
  testId: string;
  csv: string;
  columns?: ColumnMap;
  skipInvalid: boolean;
  dryRun: boolean;
  concurrency?: number;
  rate?: z.output<ReturnType<typeof rateFlag>>;
  journal?: string;
  results?: string;
};
type Input =
  | { mode: 'single'; single: z.infer<ReturnType<typeof inviteSchema>> }
  | { mode: 'bulk'; bulk: Bulk; defaults: Record<string, unknown>; fromOperand: boolean };

/** A schema that refuses the value of one key with this message (a flag that does not fit the mode). */
const refuse = (key: string, message: string) => z.looseObject({ [key]: z.never({ error: message }) });

/**
 * One candidate or a CSV of them, decided from what was typed before anything is validated; then
 * the chosen mode's own declarations validate.
 */
function pick(raw: Record<string, unknown>, globals?: Record<string, unknown>): z.core.$ZodType<Input> {
  // a second word is only the old `--csv FILE` spelling (the global --csv is a switch, so FILE arrives as a word)
  if (raw.csvFile !== undefined && globals?.csv !== true) throw strayWord(String(raw.testId), String(raw.csvFile));
  const csvKey =
    raw.fromCsv !== undefined
      ? 'fromCsv'
      : raw.csv !== undefined
        ? 'csv'
        : raw.csvFile !== undefined
          ? 'csvFile'
          : undefined;
  if (csvKey === undefined) {
    const stray = BULK_ONLY.find((k) => raw[k] !== undefined);
    if (stray) return refuse(stray, 'needs --from-csv FILE') as unknown as z.ZodMiniType<never>;
    return z.pipe(
      inviteSchema(),
      z.transform((single): Input => ({ mode: 'single', single })),
    );
  }
  if (csvKey === 'fromCsv' && raw.csvFile !== undefined)
    return refuse(
      'fromCsv',
      `give the CSV once (--from-csv ${String(raw.fromCsv)}), not also as an argument`,
    ) as unknown as z.ZodMiniType<never>;
  // The program's global --csv (output format) is a flag and is parsed before ours, so
  // `invite 1001 --csv FILE` reaches us as --csv plus an operand.
  const fromOperand = csvKey === 'csvFile';
  const key = csvKey === 'fromCsv' ? 'fromCsv' : 'csv';
  const bulk = fromOperand
    ? z.pipe(
        z.transform((r): Record<string, unknown> => ({
          ...(r as object),
          csv: (r as Record<string, unknown>).csvFile,
        })),
        bulkObject('csv'),
      )
    : bulkObject(key);
  return z.pipe(
    bulk,
    z.transform((v): Input => {
      const { testId, columns, skipInvalid, dryRun, concurrency, rate, journal, results } = v as typeof v & Bulk;
      const csv = String((v as Record<string, unknown>)[key]);
      return {
        mode: 'bulk',
        bulk: { testId, csv, columns, skipInvalid, dryRun, concurrency, rate, journal, results },
        defaults: rowDefaults(v),
        fromOperand,
      };
    }),
  );
}

/** `invite 1001 d.csv`: refused, with the spelling that reads a CSV when the word looks like one. */
function strayWord(testId: string, word: string): UsageError {
  const shown = /^[\w./@:+~-]{1,80}$/.test(word) ? `'${word}'` : showValue(word);
  const id = /^\d{1,20}$/.test(testId) ? testId : '1001';
  return word === '-' || /\.(csv|tsv|txt)$/i.test(word)
    ? new UsageError(
        `unexpected argument ${shown}`,
        `to invite everyone in a CSV file: assess invite ${id} --from-csv ${word}`,
      )
    : new UsageError(
        `unexpected argument ${shown}: invite takes one, the test id`,
        `e.g. assess invite ${id} --email ann@example.com --name "Ann Lee" (or --from-csv FILE)`,
      );
}

const rowDefaults = (v: Record<string, unknown>) =>
  Object.fromEntries(ROW_DEFAULTS.filter((k) => v[k] !== undefined).map((k) => [k, v[k]]));

export default defineCommand({
  ...single,
  // csvFile: the old `--csv FILE` spelling's operand; after a test id nothing else is typed
  args: {
    ...INVITE_ARGS,
    csvFile: arg({ optional: true, stdin: ['-'], hidden: true }, () => z.optional(z.string())),
  },
  description: `${single.description}; with --from-csv, invite everyone listed in a CSV file`,
  examples: [
    ...single.examples,
    'assess invite 1001 --from-csv cohort.csv            # columns ' +
      'email,name[,callbackUrl,redirectUrl,startDateTime,endDateTime,timeZoneId,stakeholderEmails,link]',
    'assess invite 1001 --from-csv cohort.csv --dry-run  # validate every row, send nothing',
    'export-candidates | assess invite 1001 --from-csv - ' +
      '--concurrency 4 --results out.ndjson --json   # summary as JSON',
  ],
  usage: '[options] <testId>',
  flags: { ...INVITE_FLAGS, ...BULK_FLAGS },
  check: undefined, // the mode's own rules: pick
  pick,
  // one paragraph: wrapped to the terminal's width when shown
  helpAfter:
    '\nResuming (--from-csv): a re-run skips the rows its journal lists as done. After Ctrl-C nothing is sent twice. ' +
    'After kill -9, the rows that were in flight (at most --concurrency) are sent again; after a power cut ' +
    'also rows finished in the last second. With --send-email the service may have e-mailed those candidates ' +
    'already: the re-run names them and invites them without an e-mail (emailWithheld in the results); with --yes ' +
    'it e-mails them again and marks them maybeEmailedTwice. The same holds for one invite whose answer was lost.',
  // a single invitation with its own access window; bulk rows carry their own timeZoneId
  tzFromProfile: (raw) =>
    raw.link === undefined &&
    raw.fromCsv === undefined &&
    raw.csvFile === undefined &&
    (raw.start !== undefined || raw.end !== undefined),
  // Bulk results go to a file (and a summary to stderr); the output flags apply to the run's summary.
  jsonFields: (input, globals) =>
    input.mode === 'bulk'
      ? input.bulk.dryRun
        ? DRY_RUN_FIELDS
        : INVITE_SUMMARY_FIELDS
      : declaredFields(single.jsonFields, input.single, globals),
  v2: {
    jsonFields: (input) => (input.mode === 'single' ? v2InviteFields(input.single) : undefined),
  },
  handler: () => import('./command.run.js'),
});
