// The one retry policy: `decide(outcome, attempt, operation)` says whether a try is made again,
// after how long, and what the outcome says about the service. Pure (the random source is a
// parameter), so it is tested as a table (test/unit/retry.test.ts). Every loop asks it: the
// transport's tries and the answers that break off (transport.ts), a report PDF's download and
// the forwarding of callbacks.
//
// Whether a repeat is safe depends on what a repeat would do on the service, which the operation
// declares (its repeat class, src/api/operations/types.ts) and the caller adds to ("this call
// e-mails the candidate"). What the service surely did not act on — a 429 (refused on arrival,
// vendor-facts: "too many requests or quota exhausted") or a connection that never carried the
// request — is repeated for every operation.

import type { Repeat } from './operations/types.js';
import type { Gate } from './pace.js';

/** What one try came to: an answer's status, a failure without an answer, or an answer cut off after its headers. */
export type Outcome =
  | { kind: 'status'; status: number; retryAfterMs?: number }
  | { kind: 'error'; code: string | undefined }
  | { kind: 'cut'; code?: string };

/** How the waits grow: equal jitter from `baseMs`, doubling, at most `capMs`; a Retry-After up to `retryAfterCapMs`. */
export interface Backoff {
  baseMs: number;
  capMs: number;
  retryAfterCapMs: number;
}

export const SERVICE_BACKOFF: Backoff = { baseMs: 250, capMs: 20_000, retryAfterCapMs: 120_000 };

export interface RetryOperation {
  /** The operation's repeat class, or `delivery`: a notification POSTed to a receiver that de-duplicates it. */
  repeat: Repeat | 'delivery';
  /** The caller's word: this call has the service e-mail the candidate (a repeat could e-mail twice). */
  emails?: boolean;
  maxAttempts: number;
  /** A bulk run's adaptive pace: a 429 without Retry-After takes the pace's next slot and uses up no try. */
  paced?: boolean;
  backoff?: Backoff;
}

export interface Attempt {
  /** The try that just ended, from 1 (a paced 429 does not count). */
  n: number;
  /** Paced 429s met so far. */
  throttled?: number;
  /** What is left of the command's --timeout, in ms: a wait as long is not begun. */
  leftMs?: number;
}

export interface Decision {
  again: boolean;
  /** The wait before the next try (0: a paced 429, whose next slot the pace gives). */
  delayMs: number;
  /** The next try does not use up one (a paced 429). */
  free: boolean;
  /** The service may have carried the request out (a later refusal may be the repeat's). */
  maybeApplied: boolean;
  /** Every request of the client waits as long (a 429 that is not paced). */
  holdAll: boolean;
}

/** 429s a paced request may meet besides its tries (each one slows the pace). */
export const PACED_429_RETRIES = 20;

/** Error codes that mean the request never left this machine. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);
/** Error codes after which the request may or may not have reached the server. */
const MAYBE_SENT_CODES = new Set([
  'ECONNRESET',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ETIMEDOUT',
]);

/**
 * Statuses repeated by class, besides a 429: a read changes nothing, so a 500 is worth a second
 * try; so is a write whose repeat returns what the first try made. Any other answer means the
 * request arrived, and a 502 from a proxy may come after the service acted.
 */
const STATUSES: Record<Repeat, ReadonlySet<number>> = {
  read: new Set([500, 502, 503, 504]),
  'same-on-repeat': new Set([500, 502, 503, 504]),
  idempotent: new Set([502, 503, 504]),
  once: new Set(),
};

export function wasSent(code: string | undefined): boolean {
  return !(code && NOT_SENT_CODES.has(code));
}

/** The outcome proves the service did nothing: safe to repeat any request. */
export function nothingProcessed(o: Outcome): boolean {
  if (o.kind === 'status') return o.status === 429;
  return o.kind === 'error' && !wasSent(o.code);
}

/** Whether a class repeats an outcome (the attempt count aside). */
export function repeats(o: Outcome, repeat: Repeat | 'delivery'): boolean {
  if (nothingProcessed(o)) return true;
  if (repeat === 'once') return false;
  if (o.kind === 'cut') return true;
  // 508: a loop, final
  if (repeat === 'delivery') return o.kind === 'error' || (o.status >= 500 && o.status !== 508) || o.status === 408;
  if (o.kind === 'status') return STATUSES[repeat].has(o.status);
  return o.code === undefined || MAYBE_SENT_CODES.has(o.code);
}

export function decide(o: Outcome, attempt: Attempt, op: RetryOperation, random: () => number = Math.random): Decision {
  const maybeApplied = o.kind === 'status' ? o.status >= 500 : o.kind === 'cut' || wasSent(o.code);
  // an e-mailing call is repeated only where the service surely did nothing
  const repeat = op.emails && op.repeat !== 'read' ? 'once' : op.repeat;
  const status = o.kind === 'status' ? o.status : 0;
  const retryAfterMs = o.kind === 'status' ? o.retryAfterMs : undefined;
  const paced = status === 429 && op.paced === true && retryAfterMs === undefined;
  const free = paced && (attempt.throttled ?? 0) < PACED_429_RETRIES;
  const delayMs = paced ? 0 : delayFor(attempt.n, retryAfterMs, op.backoff ?? SERVICE_BACKOFF, random);
  const again = (free || (attempt.n < op.maxAttempts && repeats(o, repeat))) && delayMs < (attempt.leftMs ?? Infinity);
  return { again, delayMs, free: again && free, maybeApplied, holdAll: again && status === 429 && !paced };
}

/** Milliseconds to wait before the next try (n = the one that just failed, from 1). */
function delayFor(n: number, retryAfterMs: number | undefined, b: Backoff, random: () => number): number {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, b.retryAfterCapMs);
  // "Equal jitter" exponential backoff (half fixed, half random): spreads a pool of clients so
  // they do not retry in step, yet never retries almost at once.
  const ceiling = Math.min(b.capMs, b.baseMs * 2 ** (n - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/**
 * Retry-After is either delta-seconds or an HTTP date (RFC 9110 §10.2.3); anything else — a
 * negative number, which Date.parse would read as a year BC, a bare year, garbage — is treated
 * as absent, so the normal backoff applies rather than none.
 */
export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  if (!value) return undefined;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  // every HTTP-date form (IMF-fixdate, RFC 850, asctime) starts with the day's name
  if (!IMF_OR_RFC850.test(v) && !ASCTIME.test(v)) return undefined;
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/** `Sun, 06 Nov 1994 08:49:37 GMT` and `Sunday, 06-Nov-94 08:49:37 GMT`. */
const IMF_OR_RFC850 = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,? +\d{1,2}[ -][A-Za-z]{3}[ -]\d{2,4} /;
/** `Sun Nov  6 08:49:37 1994`. */
const ASCTIME = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) +[A-Za-z]{3} +\d{1,2} /;

/**
 * The gate of a client outside a bulk run: a 429 (with its Retry-After, or a backoff) holds back
 * every request of the client, not just the one that got it.
 */
export class BackoffGate implements Gate {
  readonly adaptive = false;
  private until = 0;
  constructor(private readonly clock: () => number = Date.now) {}
  reserve(): { waitMs: number; at: number } {
    return { waitMs: this.waitMs(), at: this.clock() };
  }
  answered(): void {}
  hold(ms: number): void {
    this.until = Math.max(this.until, this.clock() + ms);
  }
  waitMs(): number {
    return Math.max(0, this.until - this.clock());
  }
}
