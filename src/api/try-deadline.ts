// Each try of a request has a deadline for its whole answer (headers and body), not an idle
// timeout between bytes: a server dripping one byte a second must not hold the CLI forever.
import { NetworkError, type RequestInfo } from './errors.js';
import type { RequestLog } from './request-log.js';
import type { RequestSpec } from './transport-spec.js';
import type { WaitBudget } from './wait-budget.js';

export interface Deadline {
  ms: number;
  /** What the timeout error says: the try's limit, or the command's. */
  said: string;
  /** The command's --timeout ends this try: nothing is tried after it. */
  wholeCommand: boolean;
  signal: AbortSignal;
  readonly expired: boolean;
  /** The deadline covers the body too; it ends when the body is read or dropped. */
  follow(b: NodeJS.ReadableStream & { destroy(err?: Error): unknown; destroyed?: boolean }): void;
  clear(): void;
}

/** What a deadline is measured against: the try's limit, the command's budget, the user's Ctrl-C. */
export interface DeadlineLimits {
  tryTimeoutMs: number;
  budget: WaitBudget;
  signal?: AbortSignal;
  log: RequestLog;
}

/**
 * The shorter of --try-timeout and what is left of the command's --timeout. It aborts with a
 * NetworkError (timedOut) as the reason, so it stays apart from the user's Ctrl-C (`signal`) and
 * surfaces as exit 6 naming the request.
 */
export function tryDeadline(spec: RequestSpec, info: RequestInfo, attempt: number, limits: DeadlineLimits): Deadline {
  const { budget, tryTimeoutMs, log } = limits;
  const left = budget.left();
  if (left <= 0) throw outOfTime(info, attempt, budget);
  const wholeCommand = left <= tryTimeoutMs;
  const ms = Math.max(1, Math.min(tryTimeoutMs, left));
  const said = wholeCommand
    ? `timed out: the command's --timeout of ${budget.shown} passed`
    : `timed out after ${ms / 1000} s`;
  const own = new AbortController();
  const state = { expired: false };
  let body: { destroy(err?: Error): unknown; destroyed?: boolean } | undefined;
  const timer = setTimeout(() => {
    // made only when it fires: an Error captures a stack, ~35 µs per request of a bulk run
    const reason = new NetworkError(
      `${spec.method} ${info.url} ${said} (no complete answer)`,
      info,
      'ASSESS_DEADLINE',
      attempt,
      true,
    );
    state.expired = true;
    log.line(`<-- deadline of ${ms / 1000} s passed (attempt ${attempt})`);
    if (body && !body.destroyed) body.destroy(reason);
    own.abort(reason);
  }, ms);
  timer.unref();
  return {
    ms,
    said,
    wholeCommand,
    // a bulk run's client has no Ctrl-C signal to join (it finishes the requests under way)
    signal: limits.signal ? AbortSignal.any([limits.signal, own.signal]) : own.signal,
    get expired() {
      return state.expired;
    },
    follow(b) {
      body = b;
      (b as NodeJS.EventEmitter).once('close', () => clearTimeout(timer));
    },
    clear: () => clearTimeout(timer),
  };
}

/** The command's --timeout has passed: nothing more is tried. */
export function outOfTime(info: RequestInfo, attempt: number, budget: WaitBudget): NetworkError {
  return new NetworkError(
    `${info.method} ${info.url} timed out: the command's --timeout of ${budget.shown} passed`,
    info,
    'ASSESS_DEADLINE',
    attempt,
    true,
  );
}
