// attempts wait: polls each invitation's report status until it reaches the target. Changes go to
// stderr; the final status of each goes to stdout. Exit 0 reached, 4 unknown id (a 404, or the
// service's 401 "not found", as everywhere), 6 timeout (also when the polls kept failing
// transiently — 5xx, 429, the network — until then: they are retried with backoff),
// 1 ended in a state that cannot reach the target (Expired, Cancelled…; with --exit-status also
// any final state other than Complete). 429 / Retry-After are honoured by the transport.
import { ApiError, isTransient } from '../../api/errors.js';
import type { V3Client } from '../../api/v3.js';
import type { Run } from '../../cli/command.js';
import { describeError } from '../../cli/exit-codes.js';
import type { Context } from '../../context.js';
import { CancelledError, NotFoundError, OutcomeError, UsageError, WaitTimeoutError } from '../../errors.js';
import { Printer } from '../../output/printer.js';
import { fmt } from '../../util/duration.js';
import { parseIdArgs } from '../shared/invitation-ids.js';
import { safeText } from '../shared/statuses.js';
import type wait from './wait.js';
import { WAIT_COLUMNS, WAIT_FIELDS } from './wait.js';
import { succeeded, verdict, type Until, type Verdict } from './shared/wait-target.js';

/** The longest pause between polls while they fail (unless --interval is longer). */
const MAX_BACKOFF_MS = 5 * 60_000;

/** One wait as it goes: the status last read of each invitation, and the failure the polls are in. */
interface Waiting {
  ctx: Context;
  client: V3Client;
  until: Until;
  state: Map<string, { status: string; verdict: Verdict }>;
  /** The last poll that failed in a way the service may get over, while it lasts (cleared by a good round). */
  failing?: { err: unknown; rounds: number };
}

interface Row {
  testInvitationId: string;
  status: string | null;
  outcome: 'timed out' | 'failed' | 'reached';
}

export const run: Run<typeof wait> = async (ctx, input) => {
  if (!input.ids.length)
    throw new UsageError('<ids>: no invitation ids given', 'e.g. assess attempts wait 900001 --until complete');
  const ids = [...new Set(parseIdArgs(input.ids))];
  const w: Waiting = { ctx, client: await ctx.api(), until: input.until, state: new Map() };
  await pollUntilSettled(w, ids, input.interval, ctx.now().getTime() + input.timeout);
  const rows = ids.map((id) => rowOf(w, id, input.exitStatus));
  await new Printer(ctx).list(rows, {
    columns: WAIT_COLUMNS,
    fields: WAIT_FIELDS,
  });
  settle(w, rows, input.timeout);
};

/** Polls the invitations still waiting, round after round, until none is, the deadline, or Ctrl-C. */
async function pollUntilSettled(w: Waiting, ids: string[], interval: number, deadline: number): Promise<void> {
  const { ctx } = w;
  const open = () => ids.filter((id) => (w.state.get(id)?.verdict ?? 'waiting') === 'waiting');
  for (;;) {
    let failed = false;
    for (const id of open()) if (!(await poll(w, id))) failed = true;
    if (!failed) w.failing = undefined;
    if (!open().length || ctx.now().getTime() >= deadline || ctx.signal.aborted) break;
    await pause(ctx, pauseAfter(w, interval), deadline);
  }
}

/** Polls one invitation; false when the poll failed transiently (polled again next round). */
async function poll(w: Waiting, id: string): Promise<boolean> {
  const { ctx } = w;
  let status: string;
  try {
    status = String((await w.client.getReport(id, 1)).status);
  } catch (err) {
    if (ctx.signal.aborted) throw err;
    // a 404 with the service's own error, or its usual 401 "does not belong to this account or
    // was not found" (read as not_found in src/api/errors.ts): exit 4, as on every other
    // command; another server's 404 keeps its error, whose hint is the base URL
    if (err instanceof ApiError && err.kind === 'not_found' && err.fromService)
      throw new NotFoundError(
        `invitation ${id} not found (or it belongs to another account)`,
        'check the id: assess attempts list --state completed --from 7d --to now',
      );
    // a 5xx, a 429 or the network (refused, reset, timed out) after the transport's own
    // retries: the wait is long, so it keeps polling until its --timeout; anything else stops it
    if (!isTransient(err)) throw err;
    w.failing = { err, rounds: w.failing?.rounds ?? 0 };
    return false;
  }
  const before = w.state.get(id);
  const v = verdict(status, w.until);
  if (!before) ctx.info(`${id}: ${safeText(status)}`);
  else if (before.status !== status) ctx.info(`${id}: ${safeText(before.status)} → ${safeText(status)}`);
  w.state.set(id, { status, verdict: v });
  return true;
}

/**
 * How long to wait before the next round: the interval, or while the polls keep failing that
 * doubled each failed round, up to 5 min (or the interval when that is longer), said on stderr.
 */
function pauseAfter(w: Waiting, interval: number): number {
  if (!w.failing) return interval;
  w.failing.rounds++;
  const pause = Math.min(interval * 2 ** Math.min(w.failing.rounds - 1, 20), Math.max(interval, MAX_BACKOFF_MS));
  w.ctx.warn(
    `polling failed (${describeError(w.failing.err).message}); trying again in ${fmt(pause)} until the --timeout`,
  );
  return pause;
}

/** Sleeps for `ms`, never past the deadline; Ctrl-C ends it at once. */
function pause(ctx: Context, ms: number, deadline: number): Promise<void> {
  return new Promise<void>((r) => {
    const t = setTimeout(r, Math.min(ms, Math.max(0, deadline - ctx.now().getTime())));
    ctx.signal.addEventListener('abort', () => (clearTimeout(t), r()), { once: true });
  });
}

/** How one invitation's wait ended. */
function rowOf(w: Waiting, id: string, exitStatus: boolean | undefined): Row {
  const s = w.state.get(id);
  const outcome =
    !s || s.verdict === 'waiting'
      ? 'timed out'
      : s.verdict === 'unreachable' || (exitStatus && !succeeded(s.status))
        ? 'failed'
        : 'reached';
  return { testInvitationId: id, status: s?.status ?? null, outcome };
}

/** The exit the rows call for: Ctrl-C, a timeout, an unreachable (or not Complete) end, or success. */
function settle(w: Waiting, rows: Row[], timeout: number): void {
  const { ctx, until } = w;
  const late = rows.filter((r) => r.outcome === 'timed out');
  const failed = rows.filter((r) => r.outcome === 'failed');
  if (ctx.signal.aborted) throw new CancelledError();
  if (late.length) {
    const where = late.map((r) =>
      r.status === null ? `${r.testInvitationId} never read` : `${r.testInvitationId} is ${safeText(r.status)}`,
    );
    // the polls were failing when time ran out: that, not the candidate, is what to look at
    const lastError = w.failing && describeError(w.failing.err, ctx.env);
    throw new WaitTimeoutError(
      `timed out after ${fmt(timeout)}: ` +
        `${where.join(', ')}${lastError ? `; the last poll failed: ${lastError.message}` : ''}`,
      lastError?.hint ?? 'wait longer with --timeout, e.g. --timeout 8h',
    );
  }
  if (failed.length) {
    // --exit-status fails a final state that did reach the target (any-terminal, started) but is
    // not Complete: that is not "cannot reach", it is "ended other than Complete"
    const unreachable = failed.filter((r) => w.state.get(String(r.testInvitationId))?.verdict === 'unreachable');
    const notComplete = failed.filter((r) => !unreachable.includes(r));
    const said = (list: typeof failed) =>
      list.map((r) => `${r.testInvitationId} ended ${safeText(r.status)}`).join(', ');
    const parts = [
      unreachable.length && `${said(unreachable)}: cannot reach ${until}`,
      notComplete.length && `${said(notComplete)}: reached ${until}, but not Complete (--exit-status)`,
    ].filter(Boolean);
    throw new OutcomeError(parts.join('; '), 'a reattempt gives the candidate another try: assess reattempt <id>');
  }
  ctx.info(`${rows.length === 1 ? 'The invitation' : `All ${rows.length} invitations`} reached ${until}.`);
}
