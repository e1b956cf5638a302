// The sandbox's fault spec: its grammar, parsed and printed, and the PRNG that makes a seeded
// run repeat. Kept apart from the injector (src/sandbox/faults.ts), which needs the server's
// timers and streams: `sandbox serve` and `sandbox faults` check a spec before loading them.
// A spec is text, e.g. "5xx=0.1,429=0.05,reset=0.05,latency=5ms..50ms,after=0.5,seed=42":
//   5xx=P        answer 500, 502 or 503 (P split evenly); 500=P, 502=P … pick single codes
//   429=P        answer 429 with Retry-After: retryAfter seconds (default 1)
//   reset=P      destroy the connection without an answer
//   truncate=P   send the status, headers and half the body, then destroy the connection
//                (always after the handler: the answer exists, the client gets part of it)
//   latency=L    answer L (5ms, 0.2s, 5ms..50ms) after the request arrived: the handler runs at
//                once and the answer is held until then, so the time the route takes is inside L
//                (as on a network, where the service works while the answer is on its way), not
//                on top of it. An injected error before the handler is answered after L too.
//   after=S      share of 5xx and resets applied AFTER the handler ran (default 0.5): the state
//                change happened, the client just never hears of it — the case that makes a
//                careless client create duplicates when it retries. A 429 is always before.
//   seed=N       the PRNG's seed (chosen at random when absent, and shown), so runs repeat
// Only service requests (/v3/, /v2/) are affected; the control API and pages never are.

export interface FaultSpec {
  latencyMs?: number | [number, number];
  /** Chance per 5xx status code, e.g. {502: 0.05, 503: 0.05}. */
  errors?: Record<number, number>;
  /** Chance of a 429 (with Retry-After). */
  tooManyRequests?: number;
  /** Chance of a destroyed connection. */
  reset?: number;
  /** Chance of an answer cut off after half its body (always after the handler). */
  truncate?: number;
  /** Share of 5xx answers and resets applied after the handler ran (default 0.5). */
  after?: number;
  /** Retry-After of a 429, in seconds (default 1). */
  retryAfterS?: number;
  seed?: number;
}

export class FaultSpecError extends Error {}

const KNOWN = '5xx, 500…599, 429, reset, truncate, latency, after, retryAfter, seed';

export function latencyOf(spec: FaultSpec, random: () => number = Math.random): number {
  const l = spec.latencyMs;
  if (l === undefined) return 0;
  if (typeof l === 'number') return Math.max(0, l);
  const [min, max] = l;
  return Math.max(0, min + random() * (max - min));
}

const MAX_LATENCY_MS = 3_600_000;

/**
 * `5ms`, `5`, `0.5s`, `2-10ms`, `5ms..50ms` → a latency (ms or [min, max]); a string
 * describing the problem otherwise.
 */
export function parseLatency(text: string): number | [number, number] | string {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s)?(?:\s*(?:-|\.\.)\s*(\d+(?:\.\d+)?)\s*(ms|s)?)?\s*$/i.exec(text);
  if (!m) return `'${text}' is not a latency; use e.g. 5ms, 0.2s, 2-10ms or 5ms..50ms`;
  const scale = (unit: string | undefined) => ((unit ?? 'ms').toLowerCase() === 's' ? 1000 : 1);
  // `2-10ms`: a unit given only at the end applies to both ends
  const a = Number(m[1]) * scale(m[2] ?? m[4]);
  const b = m[3] === undefined ? a : Number(m[3]) * scale(m[4] ?? m[2]);
  // a timer holds at most 2^31-1 ms (~24.8 days; longer fires at once, in a busy loop): an hour
  // is past every client timeout (--timeout ≤ 3600 s)
  if (b > MAX_LATENCY_MS) return `'${text}' is longer than the longest latency, 3600s`;
  if (m[3] === undefined) return a;
  if (b < a) return `'${text}': the upper bound must not be below the lower one`;
  return [a, b];
}

/** `0.05` or `5%` → 0.05; FaultSpecError naming `key` otherwise (the delivery faults' spec too). */
export function probability(key: string, v: string, example = '0.05 or 5%'): number {
  const m = /^\s*(\d*\.?\d+)\s*(%)?\s*$/.exec(v);
  const p = m ? Number(m[1]) / (m[2] ? 100 : 1) : NaN;
  if (!(p >= 0 && p <= 1)) throw new FaultSpecError(`${key}=${v}: must be a probability from 0 to 1 (e.g. ${example})`);
  return p;
}

/** Parses a spec text ("" / "off" / "none" = no faults). Throws FaultSpecError naming the problem. */
export function parseFaultSpec(text: string): FaultSpec {
  const spec: FaultSpec = {};
  const t = text.trim();
  if (t === '' || /^(off|none)$/i.test(t)) return spec;
  const seen = new Set<string>();
  for (const part of t.split(',')) {
    const m = /^\s*([\w]+)\s*=\s*(.*?)\s*$/.exec(part);
    if (!m) throw new FaultSpecError(`'${part.trim()}' is not key=value; known keys: ${KNOWN}`);
    const [, rawKey, v] = m as unknown as [string, string, string];
    const key = rawKey.toLowerCase();
    if (seen.has(key)) throw new FaultSpecError(`${rawKey} is given twice`);
    seen.add(key);
    if (key === '5xx') {
      const p = probability(rawKey, v) / 3;
      for (const code of [500, 502, 503]) (spec.errors ??= {})[code] = (spec.errors?.[code] ?? 0) + p;
    } else if (/^5\d\d$/.test(key))
      (spec.errors ??= {})[Number(key)] = (spec.errors?.[Number(key)] ?? 0) + probability(rawKey, v);
    else if (key === '429') spec.tooManyRequests = probability(rawKey, v);
    else if (key === 'reset') spec.reset = probability(rawKey, v);
    else if (key === 'truncate') spec.truncate = probability(rawKey, v);
    else if (key === 'after') spec.after = probability(rawKey, v);
    else if (key === 'latency') {
      const l = parseLatency(v);
      if (typeof l === 'string') throw new FaultSpecError(`latency: ${l}`);
      spec.latencyMs = l;
    } else if (key === 'retryafter') {
      const s = /^\s*(\d*\.?\d+)\s*s?\s*$/.exec(v);
      if (!s || Number(s[1]) > 3600)
        throw new FaultSpecError(`retryAfter=${v}: must be seconds from 0 to 3600, e.g. retryAfter=1`);
      spec.retryAfterS = Number(s[1]);
    } else if (key === 'seed') {
      if (!/^\d{1,10}$/.test(v) || Number(v) > 0xffffffff)
        throw new FaultSpecError(`seed=${v}: must be a whole number from 0 to 4294967295`);
      spec.seed = Number(v);
    } else throw new FaultSpecError(`unknown fault '${rawKey}'; known keys: ${KNOWN}`);
  }
  const total = faultChance(spec);
  if (total > 1 + 1e-9) throw new FaultSpecError(`the fault chances add up to ${round(total)}; at most 1`);
  return spec;
}

/** The JSON form (`{"5xx": 0.1, "latency": "5ms", …}`) is the text form's pairs as fields. */
export function faultSpecFromObject(o: Record<string, unknown>): FaultSpec {
  const bad = Object.entries(o).find(([, v]) => typeof v !== 'number' && typeof v !== 'string');
  if (bad) throw new FaultSpecError(`${bad[0]}: must be a number or a string`);
  return parseFaultSpec(
    Object.entries(o)
      .map(([k, v]) => `${k}=${v}`)
      .join(','),
  );
}

const round = (n: number) => Number(n.toFixed(4));
export const faultChance = (s: FaultSpec) =>
  Object.values(s.errors ?? {}).reduce((a, b) => a + b, 0) +
  (s.tooManyRequests ?? 0) +
  (s.reset ?? 0) +
  (s.truncate ?? 0);

/** The canonical text of a spec (what GET /_sandbox/faults shows). */
export function formatFaultSpec(s: FaultSpec): string {
  const parts: string[] = [];
  const errors = Object.entries(s.errors ?? {}).filter(([, p]) => p > 0);
  const even =
    errors.length === 3 &&
    errors.every(([c, p]) => ['500', '502', '503'].includes(c) && Math.abs(p - errors[0]![1]) < 1e-12);
  if (even) parts.push(`5xx=${round(errors[0]![1] * 3)}`);
  else for (const [c, p] of errors) parts.push(`${c}=${round(p)}`);
  if (s.tooManyRequests) parts.push(`429=${round(s.tooManyRequests)}`);
  if (s.reset) parts.push(`reset=${round(s.reset)}`);
  if (s.truncate) parts.push(`truncate=${round(s.truncate)}`);
  if (s.latencyMs !== undefined)
    parts.push(
      `latency=${typeof s.latencyMs === 'number' ? `${s.latencyMs}ms` : `${s.latencyMs[0]}ms..${s.latencyMs[1]}ms`}`,
    );
  if (s.after !== undefined) parts.push(`after=${round(s.after)}`);
  if (s.retryAfterS !== undefined) parts.push(`retryAfter=${s.retryAfterS}`);
  if (s.seed !== undefined) parts.push(`seed=${s.seed}`);
  return parts.join(',');
}

/** mulberry32: a tiny, fast 32-bit PRNG; the same seed gives the same sequence everywhere. */
export function seededRandom(seed: number, skip = 0): () => number {
  // mulberry32: its state after n draws is seed + n·0x6d2b79f5 (mod 2³²), so a sequence kept
  // as (seed, draws made) goes on where it stopped, in another process too
  let a = (seed + Math.imul(skip, 0x6d2b79f5)) >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
