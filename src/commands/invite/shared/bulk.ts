// `assess invite <testId> --csv FILE|-`: one invitation per row. Two streaming passes over the
// file: the first validates every row (nothing is sent when any row is bad, unless
// --skip-invalid), the second sends the rows with bounded concurrency. Finished rows go to the
// journal, so a re-run after Ctrl-C, a crash or kill -9 skips them; every row gets a line in
// the results file. Standard input is spooled to a temp file so it can be read twice.
import { createReadStream, existsSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { ApiError, NetworkError, ResponseShapeError } from '../../../api/errors.js';
import { Pace } from '../../../api/pace.js';
import { wasSent } from '../../../api/retry.js';
import { bulkClient, defaultConcurrency } from '../../../bulk/client.js';
import { KeyIndex } from '../../../bulk/key-index.js';
import { runPool } from '../../../bulk/pool.js';
import { checkFiles } from '../../../files/output-files.js';
import { errorFields } from '../../../bulk/error-fields.js';
import { BulkRun, printSummary, type OutcomeWords } from '../../../bulk/run.js';
import { spoolPrivately } from '../../../files/spool.js';
import type { Context } from '../../../context.js';
import { UsageError } from '../../../errors.js';
import { classifyReturned, inviteBody, type InviteInput } from './body.js';
import { checkRow, readCsvRows, type BadRow, type CsvRow, type ReadOptions, type RowEvent } from './csv-rows.js';
import type { ColumnMap } from './csv-header.js';
import { noteEmbeddedUrls } from '../../shared/live-sandbox.js';
import { UrlTable } from './url-table.js';
import { LedgerAppender, ledgerPath, ledgerUrl } from '../../shared/callback-ledger.js';
import { configDir } from '../../../config/store.js';
import { bulkEmailNotice } from '../../shared/email-notice.js';
import { closedInvitations } from './reopened.js';

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
/** The summary line's words for the outcomes of the results file. */
const WORDS: OutcomeWords = {
  invited: (n) => `${n} invited`,
  reopened: (n) => `${n} reopened (they were cancelled or expired)`,
  existing: (n) => `${n} existing invitation(s) returned`,
  skipped: (n) => `${n} already invited (earlier run)`,
  duplicate: (n) => `${n} duplicate row(s) skipped`,
  invalid: (n) => `${n} invalid row(s) not sent`,
  failed: (n) => `${n} failed`,
};
/** This many failures in a row (no success between) means the service refuses everything. */
const BREAKER = 20;

interface Checked {
  valid: number;
  badCount: number;
  /** Rows of empty cells: skipped, counted, never invalid. */
  blank: number;
  bad: BadRow[];
  /** key → first line: the first row of a candidate is sent, later ones are duplicates. */
  firstLine: KeyIndex;
}

export async function runBulkInvite(ctx: Context, input: BulkInviteInput): Promise<void> {
  const { path: csvPath, label, cleanup } = await openSource(ctx, input.csv);
  try {
    // every row is checked before anything is sent
    const checked = await checkAll(ctx, csvPath, label, input);
    if (checked.badCount && !input.skipInvalid) throw badRowsError(label, checked);
    const paths = invitePaths(input.csv, input.testId, input.journal, input.results);
    checkFiles([
      ...(input.csv === '-' ? [] : [{ flag: '--from-csv', path: input.csv, role: 'input' as const }]),
      { flag: '--journal', path: paths.journal, role: 'output' },
      { flag: '--results', path: paths.results, role: 'output', replaced: true },
    ]);
    if (input.dryRun) return await dryRun(ctx, checked, paths.journal, label);
    warnSkipped(ctx, checked);
    await send(ctx, input, csvPath, label, checked, paths);
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
 * Journal: `--journal`, else `<csv>.journal.ndjson` beside the file, else (stdin, `<(…)`)
 * `invite-<testId>.journal.ndjson` in the current directory. Results: `--results`, else beside
 * the journal with `.results.ndjson` in place of `.journal.ndjson`.
 */
export function invitePaths(
  csv: string,
  testId: string,
  journal?: string,
  results?: string,
): { journal: string; results: string } {
  // `<(…)` is /dev/fd/N (or /proc/self/fd/N): nothing can be written beside it.
  const nowhere = (path: string) => path === '-' || /^\/(dev|proc)\//.test(resolve(path));
  const ownJournal = resolve(nowhere(csv) ? `invite-${testId}.journal.ndjson` : `${csv}.journal.ndjson`);
  const j = journal === undefined ? ownJournal : resolve(journal);
  // the results go beside the journal, or where its own would be when it is a device (/dev/null)
  const beside = nowhere(j) ? ownJournal : j;
  const stem = basename(beside)
    .replace(/\.journal\.ndjson$/, '')
    .replace(/\.ndjson$/, '');
  return { journal: j, results: resolve(results ?? join(dirname(beside), `${stem}.results.ndjson`)) };
}

function rows(path: string, label: string, opts: ReadOptions): AsyncGenerator<RowEvent> {
  return readCsvRows(createReadStream(path, { highWaterMark: 4096 }), label, opts);
}

/** Pass 1: every row validated, nothing sent. */
async function checkAll(ctx: Context, path: string, label: string, input: BulkInviteInput): Promise<Checked> {
  const c: Checked = { valid: 0, badCount: 0, blank: 0, bad: [], firstLine: new KeyIndex() };
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
    c.firstLine.setIfAbsent(r.key, ev.row.line);
    c.valid++;
  }
  if (unknown.length && (c.badCount === 0 || input.skipInvalid))
    ctx.warn(`--from-csv: ignoring unknown column(s) ${unknown.join(', ')}`);
  return c;
}

/** --skip-invalid: each bad row said before anything is sent (they are in the results too). */
function warnSkipped(ctx: Context, c: Checked): void {
  for (const b of c.bad) ctx.warn(`${where(b)}: ${b.errors.join('; ')} (skipped with --skip-invalid)`);
  if (c.badCount > c.bad.length)
    ctx.warn(`… and ${c.badCount - c.bad.length} more bad row(s), skipped with --skip-invalid`);
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

async function dryRun(ctx: Context, c: Checked, journalPath: string, label: string): Promise<void> {
  let done = 0;
  let on = ''; // the service the journal's rows were done on, when it says (a run on another refuses it)
  if (existsSync(journalPath)) {
    const { Journal, describeTarget } = await import('../../../bulk/journal.js');
    const j = await Journal.open(journalPath);
    for (const k of c.firstLine.keys()) if (j.has(k)) done++;
    if (j.target) on = ` on ${describeTarget(j.target)}`;
    j.close();
  }
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
  warnSkipped(ctx, c);
  ctx.info(
    `Dry run of ${label}: ${summary.rows} rows, ${c.valid} valid, ${c.badCount} invalid, ${duplicates} duplicate(s), ` +
      (c.blank ? `${c.blank} blank row(s) skipped, ` : '') +
      `${done} already invited${on} (journal ${journalPath}); ${summary.wouldSend} would be sent. Nothing was sent.`,
  );
  await printSummary(ctx, { ...summary, journal: journalPath });
}

/** Pass 2: journal, results, the pool. */
async function send(
  ctx: Context,
  input: BulkInviteInput,
  path: string,
  label: string,
  c: Checked,
  paths: { journal: string; results: string },
) {
  const pace = new Pace({ cap: input.rate });
  const client = await bulkClient(ctx, pace); // a missing key fails here, before any file is touched
  const concurrency = input.concurrency ?? (await defaultConcurrency(ctx));
  const run = await BulkRun.start(ctx, paths.journal, paths.results, WORDS);
  const ledger = new LedgerAppender(ledgerPath(configDir(ctx.env), ctx.globals.profile)); // callbacks reconcile checks these
  let toSend = 0;
  for (const k of c.firstLine.keys()) if (!run.journal.has(k)) toSend++;
  let failuresInARow = 0;
  const emailed = input.defaults.sendEmail === true;
  /** Results lines of this run marked maybeEmailedTwice (earlier runs' included). */
  let maybeTwice = 0;
  const urls = new UrlTable(ctx);

  /** Rows that must be sent; everything else is recorded here as it streams past. */
  async function* sendable(): AsyncGenerator<{ row: CsvRow; key: string; input: InviteInput }> {
    for await (const ev of rows(path, label, { columns: input.columns })) {
      if (ev.kind === 'blank') continue; // counted by the first pass
      if (ev.kind === 'bad') {
        run.record({ line: ev.bad.line, outcome: 'invalid', errors: ev.bad.errors }, 'skipped'); // --skip-invalid: skipped, not failed (no exit 5 on its own)
        continue;
      }
      const { row } = ev;
      const r = checkRow(row.fields, input.testId, input.defaults);
      if (!r.ok) {
        run.record({ line: row.line, row: row.fields, outcome: 'invalid', errors: r.errors }, 'skipped');
        continue;
      }
      const first = c.firstLine.get(r.key);
      if (first !== row.line) {
        run.record(
          { line: row.line, row: row.fields, outcome: 'duplicate', duplicateOf: first, key: r.key },
          'skipped',
        );
        continue;
      }
      const done = run.journal.get(r.key);
      if (done) {
        const twice = run.journal.maybeEmailedTwice(r.key) || done.maybeEmailedTwice === true;
        if (twice) maybeTwice++;
        run.record(
          {
            line: row.line,
            row: row.fields,
            outcome: 'skipped',
            reason: 'already invited in an earlier run (journal)',
            earlierOutcome: done.outcome,
            ...serviceFields(done),
            ...(twice ? { maybeEmailedTwice: true } : {}),
          },
          'skipped',
        );
        urls.add(row.line, row.fields, serviceFields(done), 'earlier run');
        continue;
      }
      yield { row, key: r.key, input: r.input };
    }
  }

  // Candidates an earlier run was inviting with an e-mail when it died (kill -9, power cut), or
  // whose invitation failed after the request may have arrived (a timeout, a reset, a 5xx): the
  // service may have e-mailed them already; sending again may e-mail them twice. Say who.
  const uncertain = new Set(run.journal.inFlightEarlier().filter((k) => c.firstLine.get(k) !== undefined));
  if (uncertain.size) {
    const who = [...uncertain]
      .slice(0, 20)
      .map((k) => k.split('|').at(-1))
      .join(', ');
    ctx.warn(
      `${uncertain.size} candidate(s) were being invited with an e-mail when an earlier run stopped (or failed without knowing ` +
        `whether the service acted); the service may ` +
        `have e-mailed them already, and inviting them again may send a second e-mail: ${who}${uncertain.size > 20 ? ', …' : ''}`,
    );
  }
  // the service answers a reopened invitation as a new one: its closed ones are looked up first
  const closed = toSend ? await closedInvitations(ctx, client, input.testId) : new Map<string, string>();
  run.startProgress(toSend, 'Inviting', 'sent', pace);
  let fatal: unknown;
  try {
    await runPool(sendable(), { concurrency, signal: ctx.signal }, async ({ row, key, input: inv }, release) => {
      // an earlier attempt may have e-mailed the candidate: if this one e-mails too, that is two
      let again = false;
      try {
        const body = inviteBody(inv);
        if (body.sendEmail === 'yes') again = run.journal.markSending(key);
        // answered: the next row's request goes out before this answer is read and written down
        // (and when the request failed without an answer, the slot is given back all the same)
        const call = { onAnswered: release, emails: inv.sendEmail === true };
        const res = await (
          inv.link ? client.inviteByLink(input.testId, inv.link, body, call) : client.invite(input.testId, body, call)
        ).finally(release);
        failuresInARow = 0;
        const kind = classifyReturned(res.status);
        const was = closed.get(String(res.testInvitationId));
        const outcome = was ? 'reopened' : kind === 'new' || kind === 'unknown' ? 'invited' : 'existing';
        const fields = {
          testInvitationId: res.testInvitationId,
          testUrl: res.testUrl,
          status: res.status ?? null,
          emailed,
          ...(was ? { reopened: was } : {}),
        };
        const flag = again ? { maybeEmailedTwice: true } : {};
        if (again) maybeTwice++;
        run.journal.append({ k: key, line: row.line, outcome, ...fields, ...flag });
        if (inv.callbackUrl)
          ledger.add({
            at: ctx.now().toISOString(),
            invitationId: String(res.testInvitationId),
            callbackUrl: ledgerUrl(inv.callbackUrl),
            via: 'invite --from-csv',
            api: 'v3',
          });
        run.record({ line: row.line, row: row.fields, outcome, ...fields, ...flag }, 'done');
        urls.add(row.line, row.fields, fields, outcome);
      } catch (err) {
        if (!(err instanceof ApiError) && !(err instanceof NetworkError) && !(err instanceof ResponseShapeError))
          throw err;
        // every outcome is journaled: a failure that may have reached the service counts as a
        // possible e-mail for the next run; one the service surely refused does not
        const sent = mayHaveActed(err);
        const flag = again && sent ? { maybeEmailedTwice: true } : {};
        run.journal.markFailed(key, { line: row.line, error: errorFields(err), ...flag }, sent);
        if (again && sent) maybeTwice++;
        // the row has its outcome in the results (and the tally) also when it stops the run
        run.record({ line: row.line, row: row.fields, outcome: 'failed', error: errorFields(err), ...flag }, 'failed');
        // A refused key or an unknown test (or another account's) fails every row alike: stop at once.
        if (err instanceof ApiError && (err.kind === 'auth' || err.kind === 'not_found') && !inv.link) throw err;
        if (++failuresInARow >= BREAKER) throw err;
      }
    });
  } catch (err) {
    fatal = err;
  }
  const notes = [
    c.blank && `${c.blank} blank row(s) skipped`,
    maybeTwice && `${maybeTwice} may have been e-mailed twice: marked maybeEmailedTwice`,
  ]
    .filter(Boolean)
    .join(', ');
  ledger.close();
  if (ledger.failed)
    ctx.warn(
      `the callback ledger ${ledger.path} could not be written (${ledger.failed}); callbacks reconcile --all still checks every completed attempt.`,
    );
  if (fatal) throw await run.stopped(fatal, `Invitations from ${label}`);
  run.progress?.stop(); // the bar's line is cleared before the table
  await urls.print(run.resultsPath);
  await noteEmbeddedUrls(ctx);
  if (run.tally.done) ctx.info(bulkEmailNotice(emailed, run.resultsPath));
  await run.finish(`Invitations from ${label}`, notes ? ` (${notes})` : '', { emailed });
}

/** False only when the service surely did not act on the request (it refused it, or it never left). */
function mayHaveActed(err: ApiError | NetworkError | ResponseShapeError): boolean {
  if (err instanceof ApiError) return err.status < 400 || err.status >= 500 || err.maybeApplied;
  if (err instanceof NetworkError) return wasSent(err.code);
  return true; // a 2xx answer the CLI could not read: the service acted
}

function serviceFields(e: Record<string, unknown>) {
  return { testInvitationId: e.testInvitationId, testUrl: e.testUrl, status: e.status };
}
