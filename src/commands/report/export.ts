// `assess report export --state completed --from T --to T --out DIR [--pdf]`: lists the
// attempts in the window (operation 15), fetches each report (4) and with --pdf each PDF (5)
// with bounded concurrency, and writes one summary file. Finished attempts go to the journal
// (DIR/export.journal.ndjson), so a re-run resumes; PDFs are written to a temp name and renamed,
// so a file with a final name is always complete and is never downloaded again. Files the CLI
// did not write (not in the journal) are never replaced (export-pdf.ts). With --html the summary
// gets a self-contained index.html beside it (shared/digest-html.ts).
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import * as z from 'zod';
import { ApiError, NetworkError, ResponseShapeError } from '../../api/errors.js';
import { bulkClient, defaultConcurrency } from '../../bulk/client.js';
import { writeFileAtomic } from '../../bulk/atomic.js';
import { runPool } from '../../bulk/pool.js';
import { causeOf, checkFiles } from '../../bulk/output-files.js';
import { BulkRun } from '../../bulk/run.js';
import { defineCommand, zx } from '../../cli/command.js';
import { LocalError, UsageError } from '../../errors.js';
import { timeArg } from '../../util/time.js';
import { errorFields } from '../invite/shared/bulk.js';
import { listCohort } from './shared/cohort.js';
import { savePdf } from './shared/export-pdf.js';
import { summaryRow, writeSummary, type SummaryRow } from './shared/export-rows.js';
import { reportPdfName } from './shared/filename.js';

const REPORT_TYPES = { summary: 1, skills: 2, both: 3 } as const;
const BREAKER = 20;
const HTML_NAME = 'index.html';

const schema = z
  .object({
    state: z.enum(['completed', 'cancelled', 'expired'], { message: 'must be completed, cancelled or expired, e.g. --state completed' }).default('completed'),
    from: timeArg('past').optional(),
    to: timeArg('past').optional(),
    out: z.string({ error: 'is required: the directory to write to, e.g. --out reports/' }).min(1, 'must name a directory'),
    type: z.enum(['summary', 'skills', 'both'], { message: 'must be summary, skills or both, e.g. --type both' }).default('summary'),
    pdf: z.boolean().default(false),
    html: z.boolean().default(false),
    format: z.enum(['csv', 'json', 'ndjson'], { message: 'must be csv, json or ndjson, e.g. --format json' }).default('csv'),
    sinceLastRun: z.boolean().default(false),
    concurrency: zx.int(1, 64, 8).optional(),
    journal: z.string().min(1).optional(),
    results: z.string().min(1).optional(),
  })
  .superRefine((v, ctx) => {
    if (!v.from && !v.sinceLastRun) ctx.addIssue({ code: 'custom', path: ['from'], message: 'is required (or --since-last-run), e.g. --from 7d' });
    if (v.from && v.to && Date.parse(v.to) <= Date.parse(v.from)) ctx.addIssue({ code: 'custom', path: ['to'], message: `must be after --from (${v.from})` });
    // One file for both would interleave results with journal records and break resuming.
    if (v.journal && v.results && resolve(v.journal) === resolve(v.results))
      ctx.addIssue({ code: 'custom', path: ['results'], message: 'must differ from --journal' });
  });
type Input = z.infer<typeof schema>;

export default defineCommand({
  name: 'export',
  description: 'Export the reports of every attempt in a time window: one summary file, optionally one PDF each (resumable)',
  examples: [
    'assess report export --from 2026-03-01 --to 2026-04-01 --out reports/',
    'assess report export --from 1d --to now --out reports/ --pdf --type both',
    'assess report export --since-last-run --to now --out reports/ --pdf   # nightly: only what is new',
    'assess report export --from 30d --to now --out digest/ --pdf --html   # digest/index.html: open it in a browser',
  ],
  options: (cmd) =>
    cmd
      .option('--state <state>', 'completed (default), cancelled or expired')
      .option('--from <T>', "window start: YYYY-MM-DD, ISO 8601 or relative (7d); with --since-last-run defaults to the last run's --to")
      .option('--to <T>', 'window end (default now)')
      .option('--out <dir>', 'directory for the summary, the PDFs, the journal and the results (created if missing)')
      .option('--type <type>', 'report content: summary (sections), skills or both (default summary)')
      .option('--pdf', 'also save each report as a PDF: report-<candidate>-<id>.pdf')
      .option('--html', "also write index.html: the cohort's statistics, a histogram and a sortable table linking the PDFs")
      .option('--format <format>', 'summary file format: csv (default; sections as columns), json or ndjson')
      .option('--since-last-run', 'export only attempts that no earlier run (per the journal) exported')
      .option('--concurrency <n>', 'reports fetched at once (default: profile concurrency, else 8)')
      .option('--journal <file>', 'journal of exported attempts (default DIR/export.journal.ndjson)')
      .option('--results <file>', 'NDJSON results, one line per attempt (default DIR/export.results.ndjson)'),
  schema,
  v2: { unsupported: 'it lists attempts by state, which v2 cannot' },
  async run(ctx, input) {
    const dir = resolve(input.out);
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 }); // private: reports name candidates
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      const cause = code === 'EEXIST' ? 'a file of that name is in the way' : causeOf(code);
      if (!cause) throw err;
      throw new UsageError(`--out: cannot create ${dir} (${code}): ${cause}`, 'choose another directory, or fix the permissions there');
    }
    if (!statSync(dir).isDirectory()) throw new UsageError(`--out: ${dir} is not a directory`);
    const journalPath = resolve(input.journal ?? join(dir, 'export.journal.ndjson'));
    const resultsPath = resolve(input.results ?? join(dir, 'export.results.ndjson'));
    checkFiles([
      { flag: '--journal', path: journalPath, role: 'output' },
      { flag: '--results', path: resultsPath, role: 'output', replaced: true },
      { flag: 'the summary', path: join(dir, `summary.${input.format}`), role: 'output', replaced: true },
      ...(input.html ? [{ flag: 'the HTML digest', path: join(dir, HTML_NAME), role: 'output' as const, replaced: true }] : []),
    ]);
    const client = await bulkClient(ctx);
    const concurrency = input.concurrency ?? (await defaultConcurrency(ctx));
    const journalIsNew = !existsSync(journalPath);
    const run = await BulkRun.start(ctx, journalPath, resultsPath);
    // A run refused before it started leaves no empty journal of its own behind.
    const abandon = () => {
      run.close(false);
      if (journalIsNew) rmSync(journalPath, { force: true });
    };
    const summaryName = `summary.${input.format}`;
    if (existsSync(join(dir, summaryName)) && !run.journal.wrote.has(summaryName)) {
      abandon();
      throw new UsageError(
        `--out: ${join(dir, summaryName)} exists and was not written by assess (the journal ${run.journal.path} does not list it); refusing to replace it`,
        'move it away, or choose another --out directory',
      );
    }
    if (input.html && existsSync(join(dir, HTML_NAME)) && !run.journal.wrote.has(HTML_NAME)) {
      abandon();
      throw new UsageError(
        `--html: ${join(dir, HTML_NAME)} exists and was not written by assess (the journal ${run.journal.path} does not list it); refusing to replace it`,
        'move it away, or choose another --out directory',
      );
    }
    const last = run.journal.lastRun;
    const from = input.from ?? (typeof last?.to === 'string' ? last.to : undefined);
    if (!from) {
      abandon();
      throw new UsageError('--from: is required: the journal has no earlier run to continue from', 'e.g. --from 7d for the first run');
    }
    const to = input.to ?? timeArg('past').parse('now');
    const attempts = await listCohort(client, input.state, from, to);
    const reportType = REPORT_TYPES[input.type];
    const rows = new Map<string, SummaryRow>();
    const todo: Array<Record<string, unknown>> = [];
    for (const a of attempts) {
      const id = String(a.testInvitationId);
      const done = run.journal.get(id);
      const reusable = done && done.type === input.type && (!input.pdf || (typeof done.pdf === 'string' && existsSync(join(dir, done.pdf))));
      if (done && (input.sinceLastRun || reusable)) {
        if (!input.sinceLastRun) rows.set(id, done.row as SummaryRow);
        run.record(
          { testInvitationId: a.testInvitationId, outcome: 'skipped', reason: 'exported by an earlier run (journal)', pdf: done.pdf ?? null },
          'skipped',
        );
      } else todo.push(a);
    }

    run.startProgress(todo.length, 'Exporting');
    let failuresInARow = 0;
    let fatal: unknown;
    try {
      await runPool(todo, { concurrency, signal: ctx.signal }, async (a) => {
        const id = String(a.testInvitationId);
        try {
          const report = (await client.getReport(id, reportType)) as Record<string, unknown>;
          let pdf: string | null = null;
          let pdfOutcome: string | null = null;
          if (input.pdf) {
            const saved = await savePdf(
              client,
              id,
              dir,
              reportPdfName((report.candidateName as string | undefined) ?? (report.candidateEmail as string), id),
              run.journal,
              (n) => inside(dir, n),
            );
            pdf = saved.name;
            pdfOutcome = saved.outcome;
            if (saved.besideOf)
              ctx.warn(`${join(dir, saved.besideOf)} exists and was not written by assess; saved the report of ${id} beside it as ${saved.name}`);
          }
          const row = summaryRow(report, a, pdf);
          failuresInARow = 0;
          rows.set(id, row);
          run.journal.append({ k: id, type: input.type, pdf, row, ...(pdfOutcome === 'saved' ? { wrote: pdf } : {}) });
          run.record({ testInvitationId: a.testInvitationId, outcome: 'exported', status: report.status, pdf, pdfFile: pdfOutcome }, 'done');
        } catch (err) {
          if (!(err instanceof ApiError) && !(err instanceof NetworkError) && !(err instanceof ResponseShapeError)) throw err;
          if (err instanceof ApiError && err.kind === 'auth') throw err;
          run.record({ testInvitationId: a.testInvitationId, outcome: 'failed', error: errorFields(err) }, 'failed');
          if (++failuresInARow >= BREAKER) throw err;
        }
      });
    } catch (err) {
      fatal = err;
    }
    const summaryPath = join(dir, summaryName);
    // An interrupted or stopped run leaves no summary: it would be incomplete under its final name.
    if (!fatal && !ctx.signal.aborted) {
      const ordered = attempts.map((a) => rows.get(String(a.testInvitationId))).filter((r): r is SummaryRow => r !== undefined);
      try {
        writeSummary(summaryPath, input.format, ordered);
        if (input.html) {
          const { renderDigest } = await import('./shared/digest-html.js');
          writeFileAtomic(
            join(dir, HTML_NAME),
            renderDigest(ordered, { state: input.state, from, to, generatedAt: new Date().toISOString() }),
            'the HTML digest',
          );
        }
      } catch (err) {
        throw run.stopped(err, `Export from ${from} to ${to}`);
      }
      // `wrote`: this summary is ours, a later run may replace it.
      run.journal.recordRun({
        state: input.state,
        from,
        to,
        at: new Date().toISOString(),
        exported: run.tally.done,
        failed: run.tally.failed,
        wrote: input.html ? [summaryName, HTML_NAME] : summaryName,
      });
    }
    if (fatal) throw run.stopped(fatal, `Export from ${from} to ${to}`);
    // What this run wrote; --json adds it to the run's summary object (one JSON document),
    // --ndjson prints it as its own line.
    const files: Record<string, string> = ctx.signal.aborted ? {} : { summary: summaryPath, ...(input.html ? { html: join(dir, HTML_NAME) } : {}) };
    if (ctx.globals.output === 'ndjson')
      ctx.io.stdout.write(`${JSON.stringify({ ...run.tally, ...files, results: run.resultsPath, journal: run.journal.path })}\n`);
    run.finish(
      `Exported ${attempts.length} attempt(s) from ${from} to ${to}`,
      ctx.signal.aborted ? '' : `; summary: ${summaryPath}${input.html ? `, digest: ${join(dir, HTML_NAME)}` : ''}`,
      files,
    );
  },
});

/** A file name built from service data must stay inside DIR, whatever it contains. */
export function inside(dir: string, name: string): string {
  const path = resolve(dir, name);
  if (!path.startsWith(dir + sep) || path.slice(dir.length + 1).includes(sep))
    throw new LocalError(`refusing to write ${JSON.stringify(name)}: it would leave ${dir}`);
  return path;
}
