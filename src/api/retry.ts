// Retry policy, kept pure so it can be tested without a network.
//
// Which requests may be repeated depends on what a repeat would do on the server: GETs, invites
// and reattempts (idempotent per candidate in the spec) and callback processing are safe even if
// the first try reached the server; creating/updating links and settings, and requests that
// e-mail a candidate, are not, so those are retried only when the service surely did nothing:
// the connection failed before anything was sent, or the answer was a 429 (refused on arrival).

import type { Gate } from './pace.js';

export type Outcome =
  | { kind: 'status'; status: number; retryAfter?: string | null }
  | { kind: 'error'; code: string | undefined; sent: boolean };

export const RETRY_STATUSES = new Set([429, 502, 503, 504]);
/**
 * A read (GET) changes nothing, so a 500 is worth a second try too; so is a write whose repeat the
 * spec makes return what the first try made (`sameOnRepeat`: reattempt). Other writes answered 500
 * are not repeated.
 */
export const READ_RETRY_STATUSES = new Set([500]);

/**
 * Statuses that prove the service did nothing: a 429 refuses the request on arrival (vendor-facts:
 * "too many requests or quota exhausted"), before anything is processed or e-mailed.
 */
const NOT_PROCESSED_STATUSES = new Set([429]);

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

export function wasSent(code: string | undefined): boolean {
  return !(code && NOT_SENT_CODES.has(code));
}

/** The outcome proves the service did nothing (a 429, or a connection that never carried the request): safe to repeat any request. */
export function nothingProcessed(o: Outcome): boolean {
  return o.kind === 'status' ? NOT_PROCESSED_STATUSES.has(o.status) : !o.sent;
}

export function shouldRetry(
  o: Outcome,
  opts: { idempotent: boolean; attempt: number; maxAttempts: number; read?: boolean; sameOnRepeat?: boolean },
): boolean {
  if (opts.attempt >= opts.maxAttempts) return false;
  if (nothingProcessed(o)) return true;
  if (o.kind === 'status') {
    // Any other answer means the request arrived, and a 502 from a proxy may come after the
    // server acted: only requests that are safe to repeat are retried on such a status.
    if ((opts.read || (opts.sameOnRepeat && opts.idempotent)) && READ_RETRY_STATUSES.has(o.status)) return true;
    return RETRY_STATUSES.has(o.status) && opts.idempotent;
  }
  return opts.idempotent && (o.code === undefined || MAYBE_SENT_CODES.has(o.code));
}

/** Milliseconds to wait before the next attempt (attempt = the one that just failed, from 1). */
export function retryDelayMs(
  attempt: number,
  retryAfter: string | null | undefined,
  now: number,
  random: () => number = Math.random,
  baseMs = 250,
  capMs = 20_000,
): number {
  const fromHeader = parseRetryAfter(retryAfter, now);
  if (fromHeader !== undefined) return Math.min(fromHeader, 120_000);
  // "Equal jitter" exponential backoff (half fixed, half random): spreads a pool of clients so
  // they do not retry in step, yet never retries almost at once.
  const ceiling = Math.min(capMs, baseMs * 2 ** (attempt - 1));
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
  if (!HTTP_DATE.test(v)) return undefined;
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

const HTTP_DATE =
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,? +\d{1,2}[ -][A-Za-z]{3}[ -]\d{2,4} |^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) +[A-Za-z]{3} +\d{1,2} /;

/**
 * A gate shared by every request of one client: a 429 with Retry-After holds back the whole
 * pool of a bulk command, not just the request that got it.
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
