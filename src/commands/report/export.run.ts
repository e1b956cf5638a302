// `assess report export`: lists the attempts in the window, fetches each report and with --pdf
// each PDF with bounded concurrency, and writes the summary files (shared/export-rows.ts) and with
// --html index.html (shared/digest-html.ts). Finished attempts go to the journal, kept in the
// profile's store under the directory's real path (or in --journal FILE), so a re-run resumes.
import { existsSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { ApiError, NetworkError, ResponseShapeError } from '../../api/errors.js';
import { answerFields } from '../../api/answer-fields.js';
import { Pace } from '../../api/pace.js';
import type { V3Client } from '../../api/v3.js';
import { bulkClient, defaultConcurrency } from '../../bulk/client.js';
import { writeFileAtomic } from '../../files/atomic.js';
import { runPool } from '../../bulk/pool.js';
import { errorFields } from '../../bulk/error-fields.js';
import { BulkRun, type OutcomeWords } from '../../bulk/run.js';
import { noteOldJournal, openJournal } from '../../bulk/journal-store.js';
import type { Run } from '../../cli/command.js';
import { UsageError } from '../../errors.js';
import { timeArg } from '../../util/time.js';
import { displayZone } from '../../output/local-time.js';
import { listCohort } from './shared/cohort.js';
import { savePdf } from './shared/export-pdf.js';
import { journaledRow, summaryRow, writeSummary, type SummaryRow } from './shared/export-rows.js';
import { reportPdfName } from './shared/filename.js';
import type { Context } from '../../context.js';
import type exportCommand from './export.js';
import type { ExportInput } from './export.js';
import { plural } from '../../util/plural.js';
import { checkOutputs, HTML_NAME, inside, outDir, refuseForeignFiles, type Outputs } from './shared/export-files.js';

/** The summary line's words for the outcomes of the results file. */
const EXPORT_WORDS: OutcomeWords = {
  exported: (n) => `${n} exported`,
  skipped: (n) => `${n} already exported (earlier run)`,
  failed: (n) => `${n} failed`,
};

const REPORT_TYPES = { summary: 1, skills: 2, both: 3 } as const;
const BREAKER = 20;

type Row = Record<string, unknown>;

/** What the steps of one export share. */
interface Job {
  ctx: Context;
  input: ExportInput;
  dir: string;
  client: V3Client;
  run: BulkRun;
  /** The report's declared fields: every summary row has them all. */
  fields: string[];
  /** The summary rows of the listed attempts, by invitation id: exported now, or kept from an earlier run. */
  rows: Map<string, SummaryRow>;
}

/** The attempt window, as said in the closing lines. */
interface Window {
  from: string;
  to: string;
}

export const run: Run<typeof exportCommand> = async (ctx, input) => {
  const { dir, created } = outDir(input.out);
  const outputs = checkOutputs(input, dir);
  const pace = new Pace({ cap: input.rate });
  const client = await bulkClient(ctx, pace);
  const concurrency = input.concurrency ?? (await defaultConcurrency(ctx));
  const bulk = await startRun(ctx, dir, created, outputs);
  refuseForeignFiles(bulk, input, dir, outputs.written);
  const window = { from: startOf(ctx, input, bulk), to: input.to ?? timeArg('past').parse('now') };
  const attempts = await listCohort(client, input.state, window.from, window.to);
  // --since-last-run: the summary accumulates — every attempt this journal's runs exported, then
  // this run's new ones — so a run with nothing new never leaves a summary of only a header.
  const earlier = input.sinceLastRun ? bulk.journal.entries().filter((e) => e.row !== undefined && e.row !== null) : [];
  const job: Job = { ctx, input, dir, client, run: bulk, fields: await answerFields('v3.getReport'), rows: new Map() };
  const todo = skipExported(job, attempts);
  bulk.startProgress(todo.length, 'Exporting', 'exported', pace);
  const fatal = await exportAll(job, todo, concurrency);
  const listed = attempts
    .map((a) => job.rows.get(String(a.testInvitationId)))
    .filter((r): r is SummaryRow => r !== undefined);
  // --since-last-run: earlier runs' rows, then this run's new ones
  const ordered = [...earlier.map((e) => rowOf(job, e)), ...listed];
  const summaryPath = join(dir, outputs.written[0]!);
  // --since-last-run with nothing new: the last run's summary stays as it was; the run is still
  // recorded, so the next one continues from this --to.
  const keepSummary = input.sinceLastRun && listed.length === 0 && existsSync(summaryPath);
  if (keepSummary && !fatal && !ctx.signal.aborted)
    ctx.info(`Nothing new since the last run: ${summaryPath} (the last run's) is left as it was.`);
  // An interrupted or stopped run leaves no summary: it would be incomplete under its final name.
  if (!fatal && !ctx.signal.aborted) await writeOutputs(job, ordered, window, outputs.written, keepSummary);
  if (fatal) throw await bulk.stopped(fatal, `Export from ${window.from} to ${window.to}`);
  await finish(job, attempts.length, window, summaryPath, keepSummary);
};

/** The run on the directory's journal (locked: one export at a time writes there). */
async function startRun(ctx: Context, dir: string, created: boolean, outputs: Outputs): Promise<BulkRun> {
  const { journalFile } = outputs;
  const journal = await openJournal(ctx, { kind: 'export', name: realpathSync(dir), file: journalFile, lock: true });
  if (!journalFile) noteOldJournal(ctx, join(dir, 'export.journal.ndjson'), journal);
  // a directory made anew (or emptied) starts anew: what an earlier run exported there is gone
  if (created) journal.clear();
  return BulkRun.start(ctx, journal, outputs.resultsPath, EXPORT_WORDS);
}

/** The window's start (windowStart); without --from, only a journal with an earlier run has one. */
function startOf(ctx: Context, input: ExportInput, run: BulkRun): string {
  const from = windowStart(ctx, input, run.journal.lastRun);
  if (!from) {
    run.close(false);
    throw new UsageError(
      '--from: is required: the journal has no earlier run to continue from',
      'e.g. --from 7d for the first run',
    );
  }
  return from;
}

/**
 * The attempts still to export. One an earlier run exported is skipped: always with
 * --since-last-run, otherwise when it has the same --type (and its PDF, with --pdf), and then its
 * journaled row goes into this summary.
 */
function skipExported(job: Job, attempts: Row[]): Row[] {
  const { input, dir, run } = job;
  const todo: Row[] = [];
  for (const a of attempts) {
    const id = String(a.testInvitationId);
    const done = run.journal.get(id);
    const reusable =
      done &&
      done.type === input.type &&
      (!input.pdf || (typeof done.pdf === 'string' && existsSync(join(dir, done.pdf))));
    if (done && (input.sinceLastRun || reusable)) {
      if (!input.sinceLastRun) job.rows.set(id, rowOf(job, done));
      run.record(
        {
          testInvitationId: a.testInvitationId,
          outcome: 'skipped',
          reason: 'exported by an earlier run (journal)',
          pdf: done.pdf ?? null,
        },
        'skipped',
      );
    } else todo.push(a);
  }
  return todo;
}

const rowOf = (job: Job, entry: Row) => journaledRow(entry.row as Row, job.fields);

/**
 * Exports each attempt, `concurrency` at once. An attempt the service or the network failed is
 * journaled and counted; a refused key, BREAKER failures in a row, or any other error stops the
 * pool and is returned (the run then ends as stopped).
 */
async function exportAll(job: Job, todo: Row[], concurrency: number): Promise<unknown> {
  const { ctx, input, run } = job;
  let failuresInARow = 0;
  try {
    await runPool(todo, { concurrency, signal: ctx.signal }, async (a, release) => {
      const id = String(a.testInvitationId);
      try {
        const { report, pdf, pdfOutcome } = await fetchOne(job, id, release);
        const row = summaryRow(report, a, pdf, job.fields);
        failuresInARow = 0;
        job.rows.set(id, row);
        run.journal.append({ k: id, type: input.type, pdf, row, ...(pdfOutcome === 'saved' ? { wrote: pdf } : {}) });
        run.record(
          {
            testInvitationId: a.testInvitationId,
            outcome: 'exported',
            status: report.status,
            pdf,
            pdfFile: pdfOutcome,
          },
          'done',
        );
      } catch (err) {
        if (!(err instanceof ApiError) && !(err instanceof NetworkError) && !(err instanceof ResponseShapeError))
          throw err;
        // every outcome is journaled (a re-run retries it), also that of the item that stops the run
        run.journal.markFailed(id, { error: errorFields(err) });
        run.record({ testInvitationId: a.testInvitationId, outcome: 'failed', error: errorFields(err) }, 'failed');
        // a refused key (401/403) fails every item alike: stop at once
        if (err instanceof ApiError && err.kind === 'auth') throw err;
        if (++failuresInARow >= BREAKER) throw err;
      }
    });
  } catch (err) {
    return err;
  }
  return undefined;
}

/**
 * One attempt's report, and with --pdf its PDF saved. The pool's slot is given back once the
 * last answer of the item is in (the report's, or its PDF's), so the next report is asked for
 * before this one is read and written down.
 */
async function fetchOne(
  job: Job,
  id: string,
  release: () => Promise<void>,
): Promise<{ report: Row; pdf: string | null; pdfOutcome: string | null }> {
  const { ctx, input, dir, client, run } = job;
  const reportType = REPORT_TYPES[input.type];
  const report = (await client.getReport(id, reportType, input.pdf ? {} : { onAnswered: release })) as Row;
  let pdf: string | null = null;
  let pdfOutcome: string | null = null;
  if (input.pdf) {
    const saved = await savePdf(
      client,
      id,
      reportPdfName((report.candidateName as string | undefined) ?? (report.candidateEmail as string), id),
      run.journal.wrote,
      (n) => inside(dir, n),
      release,
      input.maxSize,
    );
    pdf = saved.name;
    pdfOutcome = saved.outcome;
    if (saved.besideOf)
      ctx.warn(
        `${join(dir, saved.besideOf)} exists and was not written by assess; saved the report of ${id} beside it as ` +
          `${saved.name}`,
      );
  }
  await release(); // if neither answer called it (a PDF kept from an earlier run)
  return { report, pdf, pdfOutcome };
}

/** The summary (and with --html the digest), unless the last run's is kept; then the run is recorded. */
async function writeOutputs(
  job: Job,
  ordered: SummaryRow[],
  { from, to }: Window,
  written: string[],
  keepSummary: boolean,
): Promise<void> {
  const { ctx, input, dir, run } = job;
  try {
    const scrub = (text: string) => ctx.secrets.scrub(text);
    if (!keepSummary) writeSummary(dir, input.format, ordered, scrub);
    if (input.html && !keepSummary) {
      const { renderDigest } = await import('./shared/digest-html.js');
      const html = renderDigest(ordered, {
        state: input.state,
        from,
        to,
        generatedAt: ctx.now().toISOString(),
        zone: displayZone(ctx.env),
      });
      writeFileAtomic(join(dir, HTML_NAME), scrub(html), 'the HTML digest');
    }
  } catch (err) {
    throw await run.stopped(err, `Export from ${from} to ${to}`);
  }
  // `wrote`: this summary is ours, a later run may replace it.
  run.journal.recordRun({
    state: input.state,
    from,
    to,
    at: ctx.now().toISOString(),
    exported: run.tally.done,
    failed: run.tally.failed,
    wrote: [...written, ...(input.html ? [HTML_NAME] : [])],
  });
}

/**
 * The closing lines. The summary files are added to the run's summary object (--json, --ndjson,
 * --csv, --query): this run's, or the last run's kept as they were (they hold every row the
 * journal's runs exported).
 */
async function finish(
  job: Job,
  listed: number,
  { from, to }: Window,
  summaryPath: string,
  kept: boolean,
): Promise<void> {
  const { ctx, input, dir, run } = job;
  const files: Record<string, string> = ctx.signal.aborted
    ? {}
    : {
        summary: summaryPath,
        ...(input.format === 'csv' ? { sections: join(dir, 'sections.csv'), skills: join(dir, 'skills.csv') } : {}),
        ...(input.html && existsSync(join(dir, HTML_NAME)) ? { html: join(dir, HTML_NAME) } : {}),
      };
  await run.finish(
    `Export of ${plural(listed, 'attempt')} from ${from} to ${to}`,
    ctx.signal.aborted || kept
      ? ''
      : `; summary: ${summaryPath}${input.html ? `, digest: ${join(dir, HTML_NAME)}` : ''}`,
    files,
  );
}

/**
 * --since-last-run starts where the last run ended; a --from given with it is the first night's
 * start, and never cuts the window short: a job that missed nights still gets what they had.
 */
function windowStart(ctx: Context, input: ExportInput, last: Record<string, unknown> | null): string | undefined {
  const lastTo = input.sinceLastRun && typeof last?.to === 'string' ? last.to : undefined;
  if (!input.from || !lastTo) return input.from ?? lastTo;
  if (Date.parse(lastTo) >= Date.parse(input.from)) return input.from;
  ctx.info(`--since-last-run: starting at the last run's end, ${lastTo}, before --from (nothing in between is missed)`);
  return lastTo;
}
