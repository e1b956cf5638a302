// `assess invite <testId> --csv FILE|-`: one invitation per row. Two streaming passes over the
// file: the first validates every row (nothing is sent when any row is bad, unless
// --skip-invalid), the second sends the rows with bounded concurrency (bulk-send.ts). Finished
// rows go to the journal, so a re-run after Ctrl-C, a crash or kill -9 skips them; every row gets
// a line in the results file. Standard input is spooled to a temp file so it can be read twice.
import { createReadStream, existsSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { openJournal } from '../../../bulk/journal-store.js';
import { checkFiles } from '../../../files/output-files.js';
import { plural } from '../../../util/plural.js';
import { printSummary } from '../../../bulk/run.js';
import { spoolPrivately } from '../../../files/spool.js';
import type { Context } from '../../../context.js';
import { AuthError, UsageError } from '../../../errors.js';
import { checkRow, readCsvRows, type BadRow, type ReadOptions, type RowEvent } from './csv-rows.js';
import { sendRows } from './bulk-send.js';
import type { ColumnMap } from './csv-header.js';

export interface BulkInviteInput {
  testId: string;
  csv: string;
  skipInvalid: boolean;
  dryRun: boolean;
  concurrency?: number;
  /** `--rate`: requests a second, never exceeded. */
  rate?: number;
  journal?: string;
  results?: string;
  /** Raw values of the single-invite flags, applied to every row (columns override). */
  defaults: Record<string, unknown>;
  /** `--columns`: which heading holds which column. */
  columns?: ColumnMap;
}

const SHOW_BAD = 50;

export interface Checked {
  valid: number;
  badCount: number;
  /** Rows of empty cells: skipped, counted, never invalid. */
  blank: number;
  bad: BadRow[];
  /** key → first line: the first row of a candidate is sent, later ones are duplicates. */
  firstLine: Map<string, number>;
}

/** Where a run's journal is (its name in the profile's store, or --journal), its results, an older journal's place. */
export interface InvitePaths {
  name: string;
  journal?: string;
  results: string;
  oldJournal: string;
}

export async function runBulkInvite(ctx: Context, input: BulkInviteInput): Promise<void> {
  const { path: csvPath, label, cleanup } = await openSource(ctx, input.csv);
  try {
    // every row is checked before anything is sent
    const checked = await checkAll(ctx, csvPath, label, input);
    // a dry run lists every bad row instead (then fails the check unless --skip-invalid)
    if (checked.badCount && !input.skipInvalid && !input.dryRun) throw badRowsError(label, checked);
    const paths = invitePaths(input.csv, input.testId, input.journal, input.results);
    checkFiles([
      ...(input.csv === '-' ? [] : [{ flag: '--from-csv', path: input.csv, role: 'input' as const }]),
      ...(paths.journal ? [{ flag: '--journal', path: paths.journal, role: 'output' as const }] : []),
      { flag: '--results', path: paths.results, role: 'output', replaced: true },
    ]);
    if (input.dryRun) return await dryRun(ctx, checked, paths, label, input.skipInvalid);
    warnSkipped(ctx, checked);
    await sendRows(
      ctx,
      input,
      { path: csvPath, label, rows: () => rows(csvPath, label, { columns: input.columns }) },
      checked,
      paths,
    );
  } finally {
    cleanup();
  }
}

async function openSource(ctx: Context, csv: string): Promise<{ path: string; label: string; cleanup: () => void }> {
  if (csv !== '-') {
    const path = resolve(csv);
    // A FIFO or `<(…)` can be read once only: copy it once, then read the copy (twice).
    if (isPipeLike(path)) return { ...(await spoolPrivately(ctx, createReadStream(path), { fifo: path })), label: csv };
    return { path, label: csv, cleanup: () => undefined };
  }
  if (ctx.io.stdinIsTTY)
    throw new UsageError(
      '--from-csv -: standard input is a terminal',
      'pipe the file in: assess invite 1001 --from-csv - < candidates.csv',
    );
  return { ...(await spoolPrivately(ctx, ctx.io.stdin)), label: 'standard input' };
}

function isPipeLike(path: string): boolean {
  try {
    const st = statSync(path);
    return !st.isFile() && !st.isDirectory();
  } catch {
    return false; // missing: reported by the first read, as before
  }
}

/**
 * The journal: in the profile's store under the CSV's real path and the test (standard input and
 * `<(…)`: the current directory), else `--journal FILE`. Results: `--results`, else
 * `<csv>.results.ndjson` beside the CSV (`invite-<testId>.results.ndjson` here for standard
 * input), or beside a --journal file. An older assess kept its journal at `<csv>.journal.ndjson`.
 */
export function invitePaths(csv: string, testId: string, journal?: string, results?: string): InvitePaths {
  // `<(…)` is /dev/fd/N (or /proc/self/fd/N): nothing can be written beside it, nor is it the same next time.
  const nowhere = csv === '-' || /^\/(dev|proc)\//.test(resolve(csv));
  const own = resolve(nowhere ? `invite-${testId}` : csv);
  const name = nowhere ? `${testId} - ${resolve('.')}` : `${testId} ${realOrResolved(csv)}`;
  const beside = journal === undefined ? undefined : resolve(journal);
  const stem = beside && basename(beside).replace(/(\.journal)?\.(ndjson|db|sqlite)$/, '');
  return {
    name,
    journal: beside,
    results: resolve(results ?? (beside ? join(dirname(beside), `${stem}.results.ndjson`) : `${own}.results.ndjson`)),
    oldJournal: `${own}.journal.ndjson`,
  };
}

/** The CSV by its real path (a symlink and its target are one run); the path as given when it cannot be resolved. */
function realOrResolved(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

function rows(path: string, label: string, opts: ReadOptions): AsyncGenerator<RowEvent> {
  return readCsvRows(createReadStream(path, { highWaterMark: 4096 }), label, opts);
}

/** Pass 1: every row validated, nothing sent. */
async function checkAll(ctx: Context, path: string, label: string, input: BulkInviteInput): Promise<Checked> {
  const c: Checked = { valid: 0, badCount: 0, blank: 0, bad: [], firstLine: new Map() };
  // said once the rows are known good: a refusal stays within its two lines
  let unknown: string[] = [];
  const warnUnknown = (names: string[]) => (unknown = names);
  const noteBad = (bad: BadRow) => {
    c.badCount++;
    if (c.bad.length < SHOW_BAD) c.bad.push(bad);
  };
  for await (const ev of rows(path, label, { onUnknownColumns: warnUnknown, columns: input.columns })) {
    if (ev.kind === 'blank') {
      c.blank++;
      continue;
    }
    if (ev.kind === 'bad') {
      noteBad(ev.bad);
      continue;
    }
    const r = checkRow(ev.row.fields, input.testId, input.defaults);
    if (!r.ok) {
      noteBad({ line: ev.row.line, errors: r.errors, fields: ev.row.fields });
      continue;
    }
    if (!c.firstLine.has(r.key)) c.firstLine.set(r.key, ev.row.line);
    c.valid++;
  }
  if (unknown.length && (c.badCount === 0 || input.skipInvalid))
    ctx.warn(`--from-csv: ignoring unknown ${unknown.length === 1 ? 'column' : 'columns'} ${unknown.join(', ')}`);
  return c;
}

/** Each bad row said before anything is sent: skipped with --skip-invalid (and in the results), else refused. */
function warnSkipped(ctx: Context, c: Checked, skipping = true): void {
  const fate = skipping ? 'skipped with --skip-invalid' : 'a run would refuse it';
  for (const b of c.bad) ctx.warn(`${where(b)}: ${b.errors.join('; ')} (${fate})`);
  if (c.badCount > c.bad.length) ctx.warn(`… and ${plural(c.badCount - c.bad.length, 'more bad row')} (${fate})`);
}

const where = (b: BadRow) => (b.endLine && b.endLine !== b.line ? `lines ${b.line}-${b.endLine}` : `line ${b.line}`);

/** Two lines: the first bad row with its problem (and the others' lines), and the way on. */
function badRowsError(label: string, c: Checked): UsageError {
  const bad = [...c.bad].sort((a, b) => a.line - b.line);
  const first = `${where(bad[0]!)}: ${bad[0]!.errors.join('; ')}`;
  if (c.badCount === 1)
    return new UsageError(
      `--from-csv: ${label}, ${first}; nothing was sent`,
      'fix the row and run again, or add --skip-invalid to send the good rows and list the bad one in the results file',
    );
  const lines = bad.slice(0, 10).map((b) => where(b).replace(/^lines? /, ''));
  const more = c.badCount > lines.length ? `, … ${c.badCount - lines.length} more` : '';
  return new UsageError(
    `--from-csv: ${c.badCount} bad rows in ${label} (lines ${lines.join(', ')}${more}); nothing was sent; ${first}`,
    'see each: add --dry-run --skip-invalid; fix them and run again, or add --skip-invalid to send the good rows',
  );
}

async function dryRun(ctx: Context, c: Checked, paths: InvitePaths, label: string, skipping: boolean): Promise<void> {
  let done = 0;
  const journal = await journalToCount(ctx, paths);
  if (journal) for (const k of c.firstLine.keys()) if (journal.has(k)) done++;
  const duplicates = c.valid - c.firstLine.size;
  const summary = {
    rows: c.valid + c.badCount,
    valid: c.valid,
    invalid: c.badCount,
    blank: c.blank,
    duplicates,
    alreadyDone: done,
    wouldSend: c.firstLine.size - done,
  };
  const where = journal?.path ?? paths.journal ?? "the profile's store";
  warnSkipped(ctx, c, skipping);
  ctx.info(
    `Dry run of ${label}: ${plural(summary.rows, 'row')}, ${c.valid} valid, ${c.badCount} invalid, ` +
      `${plural(duplicates, 'duplicate')}, ` +
      (c.blank ? `${plural(c.blank, 'blank row')} skipped, ` : '') +
      `${done} already invited (journal in ${where}); ${summary.wouldSend} would be sent. Nothing was sent.`,
  );
  await printSummary(ctx, { ...summary, journal: where });
  if (c.badCount && !skipping)
    throw new UsageError(
      `--from-csv: ${plural(c.badCount, 'bad row')} in ${label} (listed above): a run would send nothing`,
      'fix them and run again, or add --skip-invalid to send the good rows and list the bad ones in the results file',
    );
}

/**
 * The journal a dry run counts: none for a --journal file not there yet (a dry run makes none),
 * nor when no service is configured (a journal is one service's: there is none to count).
 */
async function journalToCount(ctx: Context, paths: InvitePaths) {
  if (paths.journal && !existsSync(paths.journal)) return undefined;
  try {
    return await openJournal(ctx, { kind: 'invite', name: paths.name, file: paths.journal, lock: false });
  } catch (err) {
    if (!(err instanceof AuthError)) throw err;
    ctx.info(`note: ${err.message}; nothing done earlier is counted`);
    return undefined;
  }
}
