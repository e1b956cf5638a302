// What every bulk command shares: the tally, the results file and the ending (summary on stderr;
// exit 0, 5 when some items failed, 130 when interrupted — SIGINT handling is in src/cli/program.ts).
import { dirname } from 'node:path';
import type { Context } from '../context.js';
import { CancelledError, PartialFailureError } from '../errors.js';
import { AtomicFile, cleanStaleTemps } from '../files/atomic.js';
import { writeTarget } from '../files/output-files.js';
import type { RunState } from './run-state.js';
import { Progress, progressMode } from './progress.js';
import { Printer } from '../output/printer.js';
import { withIdRule } from '../output/ids.js';
import type { Pace } from '../api/pace.js';
import { formatRate } from '../util/rate.js';
import { plural } from '../util/plural.js';

export interface Tally {
  done: number;
  skipped: number;
  failed: number;
}

/** One line of the results file. */
export type ResultLine = Record<string, unknown> & { outcome: string };

/**
 * How the summary line counts each outcome of the results file, in this order (`invited` →
 * "12 invited"); an outcome without words is "N <outcome>".
 */
export type OutcomeWords = Readonly<Record<string, (n: number) => string>>;

/** "12 invited, 2 already invited (earlier run), 1 failed"; "14 already invited, nothing to do". */
export function countsText(counts: ReadonlyMap<string, number>, words: OutcomeWords, tally: Tally): string {
  const order = [...Object.keys(words), ...[...counts.keys()].filter((k) => !(k in words))];
  const parts = order.filter((k) => counts.get(k)).map((k) => (words[k] ?? ((n) => `${n} ${k}`))(counts.get(k)!));
  if (tally.done + tally.failed === 0) parts.push('nothing to do');
  return parts.join(', ');
}

/**
 * The pieces of one bulk run. The results file is written under a temp name and renamed when
 * the run ends (also on SIGINT and on a fatal error), so a results file is always complete
 * for the run that wrote it.
 */
export class BulkRun {
  readonly tally: Tally = { done: 0, skipped: 0, failed: 0 };
  readonly results: AtomicFile;
  progress: Progress | null = null;
  private closed = false;
  /** Items this run set out to send (journal hits excluded): what an interruption leaves is known. */
  private expected: number | undefined;
  /** The first few failures, for the closing message (all of them are in the results file). */
  private readonly firstFailures: string[] = [];
  /** Results lines by outcome, for the summary line. */
  private readonly outcomes = new Map<string, number>();

  private constructor(
    private readonly ctx: Context,
    readonly journal: RunState,
    readonly resultsPath: string,
    private readonly words: OutcomeWords,
  ) {
    this.results = new AtomicFile(resultsPath, 'the results', (text) => ctx.secrets.scrub(text));
    // Ctrl-C twice, or an exception outside our control: never leave the temp file behind.
    ctx.onExit(() => this.close(false));
  }

  /** A run on its journal (src/bulk/journal-store.ts), writing its results to `resultsPath`. */
  static start(ctx: Context, journal: RunState, resultsPath: string, words: OutcomeWords = {}): BulkRun {
    let run: BulkRun;
    let left: number;
    try {
      // Temps lie beside the file the results are renamed onto (a --results symlink leads
      // elsewhere); counted before this run's own temp is made there (which sweeps them too)
      left = cleanStaleTemps(dirname(writeTarget(resultsPath, 'the results')));
      run = new BulkRun(ctx, journal, resultsPath, words);
    } catch (err) {
      journal.close();
      throw err;
    }
    // a killed run's results never reached their name; its outcomes are in the journal
    if (left)
      ctx.info(
        `An earlier run was killed before it wrote its results; what it did is in the journal ` +
          `(${journal.path}), and this run's results list it.`,
      );
    return run;
  }

  /** What an interrupted run left undone is "not <verb> yet": sent (invitations), exported (reports). */
  private pendingVerb = 'sent';
  /** The run's pace (its client's gate) and when its items started: the summary reports the pace. */
  private pace: Pace | null = null;
  private startedAt = 0;

  startProgress(total: number, label: string, pendingVerb = 'sent', pace: Pace | null = null): void {
    this.expected = total;
    this.pendingVerb = pendingVerb;
    this.pace = pace;
    this.startedAt = performance.now();
    this.progress = new Progress({
      stream: this.ctx.io.stderr,
      mode: progressMode(this.ctx.io, this.ctx.globals.quiet === true),
      total,
      label,
      pace: () => pace?.current() ?? null,
    });
  }

  /** Items a second over the run, the 429s met and the pace it ended at (null: never paced). */
  paceSummary(): { perSecond: number; throttled: number; pace: number | null; text: string } {
    const secs = Math.max(0.001, (performance.now() - this.startedAt) / 1000);
    const { done, failed } = this.tally;
    const perSecond = Number(((done + failed) / secs).toFixed(2));
    const throttled = this.pace?.throttled ?? 0;
    const pace = this.pace?.current() ?? null;
    const paced = pace === null ? '' : `, paced at ${formatRate(pace)}`;
    const text =
      ` in ${secs.toFixed(1)} s ` +
      `(${formatRate(perSecond)}${throttled ? `; ${throttled} answered 429 (too many requests)` : ''}${paced})`;
    return { perSecond, throttled, pace: pace === null ? null : Number(pace.toFixed(2)), text };
  }

  record(line: ResultLine, kind: keyof Tally): void {
    this.tally[kind]++;
    this.outcomes.set(line.outcome, (this.outcomes.get(line.outcome) ?? 0) + 1);
    if (kind === 'failed' && this.firstFailures.length < SHOWN_FAILURES) this.firstFailures.push(describeFailure(line));
    this.results.write(`${JSON.stringify(withIdRule(line))}\n`);
    if (kind !== 'skipped') this.progress?.tick();
  }

  /**
   * Flushes the journal and puts the results file in place (keep=false throws it away). Both
   * are tried even when one fails (a full disk); the first failure is thrown.
   */
  close(keep = true): void {
    if (this.closed) return;
    this.closed = true;
    this.progress?.stop();
    let first: unknown;
    try {
      this.journal.close();
    } catch (err) {
      first = err;
    }
    try {
      if (keep && first === undefined) this.results.commit();
      else this.results.discard();
    } catch (err) {
      first ??= err;
    }
    if (first !== undefined) throw first;
  }

  /**
   * A run stopped by an error (a refused key, a foreign test, a full disk): the files are closed
   * as far as they can be, the summary is printed all the same (its line on stderr, its object
   * under the output flags), and the error to exit with is returned.
   */
  async stopped(err: unknown, what: string): Promise<unknown> {
    try {
      this.close(true);
    } catch {
      // the run's own error is the one to report (closing fails the same way on a full disk)
    }
    this.ctx.info(
      `Stopped: ${what}: ${countsText(this.outcomes, this.words, this.tally)}. Results: ${this.resultsPath}; ` +
        `journal: ${this.journal.path}`,
    );
    try {
      await printSummary(this.ctx, this.summary(what));
    } catch {
      // the same: a stdout that cannot be written does not hide why the run stopped
    }
    return err;
  }

  /**
   * The run's summary object (--json, --ndjson, --csv, --query); `files`: what the command adds (files it wrote,
   * emailed).
   */
  private summary(
    what: string,
    files: Record<string, unknown> = {},
    pace = this.paceSummary(),
  ): Record<string, unknown> {
    const { done, skipped, failed } = this.tally;
    return {
      what,
      done,
      skipped,
      failed,
      interrupted: this.ctx.signal.aborted,
      perSecond: pace.perSecond,
      throttled: pace.throttled,
      pace: pace.pace,
      ...files,
      results: this.resultsPath,
      journal: this.journal.path,
    };
  }

  /**
   * Summary on stderr, then the exit status as an error (or nothing for exit 0). `files`: the
   * run's own output files (export's summary, index.html), added to the --json summary.
   */
  async finish(what: string, extra = '', files: Record<string, unknown> = {}): Promise<void> {
    let closing: unknown;
    try {
      this.close(true);
    } catch (err) {
      closing = err;
    }
    const { done, skipped, failed } = this.tally;
    const interrupted = this.ctx.signal.aborted;
    const pace = this.paceSummary();
    // no pace when nothing was sent: "14 already invited, nothing to do in 0.0 s" reads oddly
    const took = done + failed ? pace.text : '';
    this.ctx.info(
      `${interrupted ? 'Interrupted: ' : ''}${what}: ` +
        `${countsText(this.outcomes, this.words, this.tally)}${took}${extra}. ` +
        `Results: ${this.resultsPath}; journal: ${this.journal.path}`,
    );
    // --json [fields], --ndjson, --csv, --query: the run's summary for scripts (stdout carries
    // results only; this is the result), printed like any command's object
    await printSummary(this.ctx, this.summary(what, files, pace));
    if (closing !== undefined) throw closing;
    if (interrupted) {
      const left = this.expected === undefined ? undefined : Math.max(0, this.expected - done - failed);
      throw new CancelledError(
        `interrupted${left === undefined ? '' : ` with ${plural(left, 'item')} not ${this.pendingVerb} yet`}; ` +
          `finished items are in the journal — ` +
          `run the same command again to resume ` +
          `(it does only what is not done${failed ? ', and retries the failed ones' : ''})`,
      );
    }
    if (failed) {
      const first = this.firstFailures.map((f) => `\n  ${f}`).join('');
      const more = failed > this.firstFailures.length ? `\n  … and ${failed - this.firstFailures.length} more` : '';
      throw new PartialFailureError(
        `${failed} of ${plural(done + skipped + failed, 'item')} failed (all of them in ` +
          `${this.resultsPath}):${first}${more}\n` +
          'Run the same command again to retry only the failed items: the journal skips the ones that are done.',
        failed,
        done + skipped + failed,
      );
    }
  }
}

const SHOWN_FAILURES = 3;

/**
 * A bulk command's summary under the output flags (`--json [fields]`, `--ndjson`, `--csv`,
 * `--query`): one object, as every command prints one. A table or piped run prints nothing here:
 * the summary line is on stderr.
 */
export async function printSummary(ctx: Context, summary: Record<string, unknown>): Promise<void> {
  const { output, query } = ctx.globals;
  if (!query && output !== 'json' && output !== 'ndjson' && output !== 'csv') return;
  await new Printer(ctx).object(summary, { fields: Object.keys(summary).map((key) => ({ key, header: key })) });
}

/** `line 7: 400 Invalid email` — one failure from its results line, short. */
export function describeFailure(line: ResultLine): string {
  const where =
    line.line !== undefined
      ? `line ${String(line.line)}`
      : line.testInvitationId !== undefined
        ? `invitation ${String(line.testInvitationId)}`
        : 'item';
  const e = (line.error ?? {}) as { status?: unknown; messages?: unknown; message?: unknown; code?: unknown };
  const messages = Array.isArray(e.messages)
    ? e.messages.map(String).join('; ')
    : typeof e.message === 'string'
      ? e.message
      : '';
  const head = e.status !== undefined ? `${String(e.status)} ` : e.code != null ? `${String(e.code)} ` : '';
  const text = `${head}${messages}`.trim() || 'failed';
  return `${where}: ${text.length > 160 ? `${text.slice(0, 159)}…` : text}`;
}
