// `assess report export --state completed --from T --to T --out DIR [--pdf]`: the reports of the
// attempts in a window, one summary file and optionally one PDF each (./export.run.ts). Finished
// attempts go to the journal, so a re-run resumes; PDFs are written to a temp name and renamed,
// so a file with a final name is always complete and is never downloaded again. Files the CLI
// did not write (not in the journal) are never replaced (shared/export-pdf.ts).
import { resolve } from 'node:path';
import * as z from 'zod/mini';
import { ATTEMPT_STATES } from '../../api/wire-constants.js';
import { defineCommand, zx, flag } from '../../cli/command.js';
import type { InputOf } from '../../cli/flags.js';
import { timeArg } from '../../util/time.js';
import { EXPORT_SUMMARY_FIELDS } from '../../bulk/summary-fields.js';
import { RATE_HELP, rateFlag } from '../../bulk/rate-flag.js';
import { maxSizeFlag } from '../shared/max-size.js';

const FLAGS = {
  state: flag('completed (default), cancelled or expired', { value: 'state' }, () =>
    z._default(
      z.enum(ATTEMPT_STATES, { message: 'must be completed, cancelled or expired, e.g. --state completed' }),
      'completed',
    ),
  ),
  from: flag(
    'window start: YYYY-MM-DD, ISO 8601 or relative (-7d, "7d ago", yesterday); with --since-last-run defaults to ' +
      "the last run's --to",
    { value: 'T' },
    () => z.optional(timeArg('past')),
  ),
  to: flag('window end (default now)', { value: 'T' }, () => z.optional(timeArg('past'))),
  out: flag('directory for the summary, the PDFs and the results (created if missing)', { value: 'dir' }, () =>
    z
      .string({ error: 'is required: the directory to write to, e.g. --out reports/' })
      .check(z.minLength(1, 'must name a directory')),
  ),
  type: flag('report content: summary (sections), skills or both (default summary)', { value: 'type' }, () =>
    z._default(
      z.enum(['summary', 'skills', 'both'], { message: 'must be summary, skills or both, e.g. --type both' }),
      'summary',
    ),
  ),
  pdf: flag('also save each report as a PDF: report-<candidate>-<id>.pdf', () => z._default(z.boolean(), false)),
  maxSize: maxSizeFlag('with --pdf: the largest PDF to save, each', '50MiB'),
  html: flag("also write index.html: the cohort's statistics, a histogram and a sortable table linking the PDFs", () =>
    z._default(z.boolean(), false),
  ),
  format: flag(
    'csv (default: summary.csv, sections.csv, skills.csv), or json / ndjson (summary.json: one report each)',
    { value: 'format' },
    () =>
      z._default(
        z.enum(['csv', 'json', 'ndjson'], { message: 'must be csv, json or ndjson, e.g. --format json' }),
        'csv',
      ),
  ),
  sinceLastRun: flag('export only attempts that no earlier run (per the journal) exported', () =>
    z._default(z.boolean(), false),
  ),
  concurrency: flag('most reports fetched at once (default: profile concurrency, else 8)', { value: 'n' }, () =>
    z.optional(zx.int(1, 64, 8)),
  ),
  rate: flag(RATE_HELP, { value: 'N/s' }, () => z.optional(rateFlag())),
  journal: flag(
    'keep the journal of exported attempts in this database file, e.g. beside the reports in a CI cache (default: ' +
      "the profile's store)",
    { value: 'file' },
    () => z.optional(z.string().check(z.minLength(1))),
  ),
  results: flag('NDJSON results, one line per attempt (default DIR/export.results.ndjson)', { value: 'file' }, () =>
    z.optional(z.string().check(z.minLength(1))),
  ),
};

export type ExportInput = InputOf<typeof FLAGS>;

export default defineCommand({
  name: 'export',
  description:
    'Export the reports of every attempt in a time window: one summary file, optionally one PDF each (resumable)',
  examples: [
    'assess report export --from 2026-03-01 --to 2026-04-01 --out reports/',
    'assess report export --from 1d --to now --out reports/ --pdf --type both',
    'assess report export --since-last-run --to now --out reports/ --pdf   # nightly: only what is new',
    'assess report export --from 30d --to now --out digest/ --pdf --html   # digest/index.html: open it in a browser',
  ],
  flags: FLAGS,
  check: (v, ctx) => {
    if (!v.from && !v.sinceLastRun)
      ctx.addIssue({ code: 'custom', path: ['from'], message: 'is required (or --since-last-run), e.g. --from 7d' });
    if (v.from && v.to && Date.parse(v.to) <= Date.parse(v.from))
      ctx.addIssue({ code: 'custom', path: ['to'], message: `must be after --from (${v.from})` });
    // One file for both would interleave results with journal records and break resuming.
    if (v.journal && v.results && resolve(v.journal) === resolve(v.results))
      ctx.addIssue({ code: 'custom', path: ['results'], message: 'must differ from --journal' });
    if (v.maxSize !== undefined && !v.pdf)
      ctx.addIssue({ code: 'custom', path: ['maxSize'], message: 'needs --pdf (it caps each PDF)' });
  },
  // the output flags (--json [fields], --ndjson, --csv, --query) print the run's summary object
  jsonFields: EXPORT_SUMMARY_FIELDS,
  v2: { unsupported: 'it lists attempts by state, which v2 cannot' },
  handler: () => import('./export.run.js'),
});
