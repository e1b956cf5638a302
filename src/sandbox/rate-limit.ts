// The sandbox's rate limit, so that a client's pacing (bulk runs meeting 429s) can be tried
// without the service: a token bucket per API key, as a gateway keeps one per subscription.
// `perSecond` tokens a second, at most `burst` banked; a request takes one or is answered 429
// before the route runs (nothing happens on the service). The vendor sends no Retry-After and no
// rate-limit headers; `retry-after` in the spec adds one (whole seconds until the next token, at
// least 1, as RFC 9110 writes it) for clients that read it.
//   "25/s"  "25/s,burst=5"  "600/min,burst=1,retry-after"  "off"
// The clock is injected, so a test can drive the bucket without waiting.
import { parseRate } from '../util/rate.js';
import { FaultSpecError } from './fault-spec.js';

export interface RateLimitSpec {
  perSecond: number;
  /** Tokens banked at most (default: one second's worth, at least 1). */
  burst: number;
  /** Answer a refusal with `Retry-After` (the vendor does not). */
  retryAfter: boolean;
}

export interface RateLimitView {
  spec: string | null;
  perSecond: number | null;
  burst: number | null;
  retryAfter: boolean;
  /** Requests let through and refused since the limit was set. */
  admitted: number;
  refused: number;
}

/** Parses a spec text ("" / "off" / "none" = no limit). Throws FaultSpecError naming the problem. */
export function parseRateLimit(text: string): RateLimitSpec | null {
  const t = text.trim();
  if (t === '' || /^(off|none)$/i.test(t)) return null;
  const [head = '', ...rest] = t.split(',');
  const perSecond = parseRate(head, 100_000);
  if (typeof perSecond === 'string')
    throw new FaultSpecError(`${perSecond}: give requests per second first, e.g. 25/s`);
  const spec: RateLimitSpec = { perSecond, burst: Math.max(1, Math.ceil(perSecond)), retryAfter: false };
  const seen = new Set<string>();
  for (const part of rest) {
    const m = /^\s*([\w-]+)\s*(?:=\s*(.*?))?\s*$/.exec(part);
    const key = m?.[1]?.toLowerCase().replace(/[-_]/g, '');
    if (!m || (key !== 'burst' && key !== 'retryafter'))
      throw new FaultSpecError(`'${part.trim()}' is not burst=N or retry-after`);
    if (seen.has(key)) throw new FaultSpecError(`${m[1]} is given twice`);
    seen.add(key);
    const v = m[2];
    if (key === 'burst') {
      if (v === undefined || !/^\d{1,7}$/.test(v) || Number(v) < 1)
        throw new FaultSpecError(`burst=${v ?? ''}: must be a whole number from 1 to 9999999`);
      spec.burst = Number(v);
    } else {
      if (v !== undefined && !/^(on|off|yes|no|true|false)$/i.test(v))
        throw new FaultSpecError(`retry-after=${v}: must be on or off (or just retry-after)`);
      spec.retryAfter = v === undefined || /^(on|yes|true)$/i.test(v);
    }
  }
  return spec;
}

export function formatRateLimit(s: RateLimitSpec): string {
  return `${Number(s.perSecond.toFixed(3))}/s,burst=${s.burst}${s.retryAfter ? ',retry-after' : ''}`;
}

export type Admission = { ok: true } | { ok: false; retryAfterS: number | null };

/** One token bucket per key; `set` replaces the spec, refills every bucket and zeroes the counters. */
export class RateLimiter {
  private spec: RateLimitSpec | null = null;
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private admitted = 0;
  private refused = 0;

  constructor(
    spec?: RateLimitSpec | string | null,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.set(spec ?? null);
  }

  get active(): boolean {
    return this.spec !== null;
  }

  set(spec: RateLimitSpec | string | null): void {
    this.spec = typeof spec === 'string' ? parseRateLimit(spec) : spec;
    this.buckets.clear();
    this.admitted = 0;
    this.refused = 0;
  }

  /** Takes a token from `key`'s bucket (a new key starts full), or says how long until one. */
  take(key: string): Admission {
    const s = this.spec;
    if (!s) return { ok: true };
    const now = this.now();
    const b = this.buckets.get(key) ?? { tokens: s.burst, at: now };
    b.tokens = Math.min(s.burst, b.tokens + ((now - b.at) / 1000) * s.perSecond);
    b.at = now;
    this.buckets.set(key, b);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      this.admitted++;
      return { ok: true };
    }
    this.refused++;
    return { ok: false, retryAfterS: s.retryAfter ? Math.max(1, Math.ceil((1 - b.tokens) / s.perSecond)) : null };
  }

  view(): RateLimitView {
    const s = this.spec;
    return {
      spec: s ? formatRateLimit(s) : null,
      perSecond: s?.perSecond ?? null,
      burst: s?.burst ?? null,
      retryAfter: s?.retryAfter ?? false,
      admitted: this.admitted,
      refused: this.refused,
    };
  }
}
