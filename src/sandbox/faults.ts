// Injected faults of the sandbox, for testing a client's resilience (and latency for benchmarks).
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
// Every request draws exactly three numbers, so with one request at a time the n-th request
// always meets the same fate for a given seed.
import { nodeCrypto } from '../util/crypto.js';
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PreciseTimer, preciseNow } from './precise-timer.js';

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

const isServiceRequest = (url: string) => url.startsWith('/v3/') || url.startsWith('/v2/');
const KNOWN = '5xx, 500…599, 429, reset, truncate, latency, after, retryAfter, seed';

export function latencyOf(spec: FaultSpec, random: () => number = Math.random): number {
  const l = spec.latencyMs;
  if (l === undefined) return 0;
  if (typeof l === 'number') return Math.max(0, l);
  const [min, max] = l;
  return Math.max(0, min + random() * (max - min));
}

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
  if (m[3] === undefined) return a;
  const b = Number(m[3]) * scale(m[4] ?? m[2]);
  if (b < a) return `'${text}': the upper bound must not be below the lower one`;
  return [a, b];
}

function probability(key: string, v: string): number {
  const m = /^\s*(\d*\.?\d+)\s*(%)?\s*$/.exec(v);
  const p = m ? Number(m[1]) / (m[2] ? 100 : 1) : NaN;
  if (!(p >= 0 && p <= 1)) throw new FaultSpecError(`${key}=${v}: must be a probability from 0 to 1 (e.g. 0.05 or 5%)`);
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
    } else if (/^5\d\d$/.test(key)) (spec.errors ??= {})[Number(key)] = (spec.errors?.[Number(key)] ?? 0) + probability(rawKey, v);
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
      if (!s || Number(s[1]) > 3600) throw new FaultSpecError(`retryAfter=${v}: must be seconds from 0 to 3600, e.g. retryAfter=1`);
      spec.retryAfterS = Number(s[1]);
    } else if (key === 'seed') {
      if (!/^\d{1,10}$/.test(v) || Number(v) > 0xffffffff) throw new FaultSpecError(`seed=${v}: must be a whole number from 0 to 4294967295`);
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
const faultChance = (s: FaultSpec) => Object.values(s.errors ?? {}).reduce((a, b) => a + b, 0) + (s.tooManyRequests ?? 0) + (s.reset ?? 0) + (s.truncate ?? 0);

/** The canonical text of a spec (what GET /_sandbox/faults shows). */
export function formatFaultSpec(s: FaultSpec): string {
  const parts: string[] = [];
  const errors = Object.entries(s.errors ?? {}).filter(([, p]) => p > 0);
  const even = errors.length === 3 && errors.every(([c, p]) => ['500', '502', '503'].includes(c) && Math.abs(p - errors[0]![1]) < 1e-12);
  if (even) parts.push(`5xx=${round(errors[0]![1] * 3)}`);
  else for (const [c, p] of errors) parts.push(`${c}=${round(p)}`);
  if (s.tooManyRequests) parts.push(`429=${round(s.tooManyRequests)}`);
  if (s.reset) parts.push(`reset=${round(s.reset)}`);
  if (s.truncate) parts.push(`truncate=${round(s.truncate)}`);
  if (s.latencyMs !== undefined) parts.push(`latency=${typeof s.latencyMs === 'number' ? `${s.latencyMs}ms` : `${s.latencyMs[0]}ms..${s.latencyMs[1]}ms`}`);
  if (s.after !== undefined) parts.push(`after=${round(s.after)}`);
  if (s.retryAfterS !== undefined) parts.push(`retryAfter=${s.retryAfterS}`);
  if (s.seed !== undefined) parts.push(`seed=${s.seed}`);
  return parts.join(',');
}

/** mulberry32: a tiny, fast 32-bit PRNG; the same seed gives the same sequence everywhere. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type When = 'before' | 'after';
export type Fault = { kind: 'status'; status: number; when: When } | { kind: 'reset'; when: When } | { kind: 'truncate'; when: When };
export interface Decision {
  latencyMs: number;
  fault: Fault | null;
}
export interface FaultCounters {
  requests: number;
  delayed: number;
  total: number;
  /** "502", "429", "reset" → how many before and after the handler. */
  injected: Record<string, { before: number; after: number }>;
}

/** The live fault state of one sandbox: the spec, its PRNG, and counters of what was injected. */
export class FaultInjector {
  private spec: FaultSpec | null = null;
  private random: () => number = Math.random;
  private buckets: Array<{ upTo: number; fault: 'reset' | 'truncate' | number }> = [];
  counters: FaultCounters = FaultInjector.zero();

  constructor(spec?: FaultSpec | string | null) {
    this.set(spec ?? null);
  }

  private static zero(): FaultCounters {
    return { requests: 0, delayed: 0, total: 0, injected: {} };
  }

  get active(): boolean {
    return this.spec !== null;
  }

  /** Replaces the spec (null clears it) and restarts the PRNG and the counters. */
  set(spec: FaultSpec | string | null): void {
    const s = typeof spec === 'string' ? parseFaultSpec(spec) : spec;
    this.counters = FaultInjector.zero();
    if (!s || (faultChance(s) === 0 && !latencyOf(s, () => 1))) {
      this.spec = null;
      this.buckets = [];
      return;
    }
    this.spec = { ...s, seed: s.seed ?? nodeCrypto().randomInt(2 ** 31) };
    this.random = seededRandom(this.spec.seed!);
    let upTo = 0;
    this.buckets = [];
    for (const [code, p] of Object.entries(s.errors ?? {})) if (p > 0) this.buckets.push({ upTo: (upTo += p), fault: Number(code) });
    if (s.tooManyRequests) this.buckets.push({ upTo: (upTo += s.tooManyRequests), fault: 429 });
    if (s.reset) this.buckets.push({ upTo: (upTo += s.reset), fault: 'reset' });
    if (s.truncate) this.buckets.push({ upTo: (upTo += s.truncate), fault: 'truncate' });
  }

  get retryAfterS(): number {
    return this.spec?.retryAfterS ?? 1;
  }

  /** The fate of the next service request (three draws, always). */
  decide(): Decision {
    const [l, k, w] = [this.random(), this.random(), this.random()];
    const s = this.spec!;
    const latencyMs = latencyOf(s, () => l);
    this.counters.requests++;
    if (latencyMs > 0) this.counters.delayed++;
    const bucket = this.buckets.find((b) => k < b.upTo);
    if (!bucket) return { latencyMs, fault: null };
    const when = bucket.fault === 'truncate' || (bucket.fault !== 429 && w < (s.after ?? 0.5)) ? 'after' : 'before';
    const name = String(bucket.fault);
    (this.counters.injected[name] ??= { before: 0, after: 0 })[when]++;
    this.counters.total++;
    const fault: Fault = typeof bucket.fault === 'string' ? { kind: bucket.fault, when } : { kind: 'status', status: bucket.fault, when };
    return { latencyMs, fault };
  }

  view(): { spec: string | null; counters: FaultCounters } {
    return { spec: this.spec ? formatFaultSpec(this.spec) : null, counters: this.counters };
  }
}

const MESSAGES: Record<number, string> = { 429: 'Too many requests', 500: 'Internal server error', 502: 'Bad gateway', 503: 'Service unavailable' };
const faultBody = (status: number, retryAfterS: number) =>
  JSON.stringify({
    errors: [`${MESSAGES[status] ?? `HTTP ${status}`} (sandbox fault injection)${status === 429 ? `; retry after ${retryAfterS} s` : ''}`],
  });

/**
 * Adds the fault hooks (always: faults can be switched on at run time). Before the handler: an
 * answer or a destroyed socket in onRequest, so the route never runs. After: in onSend, once
 * the route changed (and persisted) state, the reply is swapped for an error or dropped.
 */
export function registerFaults(app: FastifyInstance, faults: FaultInjector): void {
  const pending = new WeakMap<FastifyRequest, Fault>();
  /** When each delayed request's answer may leave (preciseNow() ms). */
  const answerAt = new WeakMap<FastifyRequest, number>();
  const timer = new PreciseTimer();
  app.addHook('onClose', async () => timer.close());

  app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => {
    if (!faults.active || !isServiceRequest(request.url)) return done();
    const d = faults.decide();
    const apply = () => {
      if (!d.fault) return done();
      if (d.fault.when === 'after') {
        pending.set(request, d.fault);
        return done();
      }
      if (d.fault.kind !== 'status') {
        reply.hijack(); // the route must not run; nothing is ever sent
        request.raw.socket.destroy();
        return;
      }
      if (d.fault.status === 429) reply.header('retry-after', String(faults.retryAfterS));
      reply.code(d.fault.status).header('content-type', 'application/json; charset=utf-8').send(faultBody(d.fault.status, faults.retryAfterS));
    };
    if (!(d.latencyMs > 0)) return apply();
    const at = preciseNow() + d.latencyMs;
    if (d.fault?.when === 'before') return timer.at(at, apply); // the route never runs: the fault itself waits
    // the route runs now and its answer is held in onSend, so route time is not added to the latency
    answerAt.set(request, at);
    apply();
  });

  app.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: Error | null, p?: unknown) => void) => {
    const at = answerAt.get(request);
    if (at === undefined) return afterHandler(request, reply, payload, done);
    answerAt.delete(request);
    timer.at(at, () => afterHandler(request, reply, payload, done));
  });

  function afterHandler(request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: Error | null, p?: unknown) => void): void {
    const f = pending.get(request);
    if (!f) return done(null, payload);
    pending.delete(request);
    if (f.kind === 'reset') {
      (payload as { destroy?: () => void } | null)?.destroy?.(); // a PDF stream
      request.raw.socket.destroy();
      return done(null, payload);
    }
    if (f.kind === 'truncate' && (typeof payload === 'string' || Buffer.isBuffer(payload))) {
      // a stream that fails after half the body: fastify has sent the headers and destroys the socket
      const half = Buffer.from(payload).subarray(0, Math.floor(Buffer.byteLength(payload) / 2));
      const cut = new Readable({
        read() {
          this.push(half);
          setImmediate(() => this.destroy(new Error('sandbox fault injection: answer truncated')));
        },
      });
      reply.removeHeader('content-length');
      return done(null, cut);
    }
    if (f.kind === 'truncate') return done(null, payload); // no body to cut (empty answer)
    (payload as { destroy?: () => void } | null)?.destroy?.();
    reply.code(f.status).removeHeader('content-length').header('content-type', 'application/json; charset=utf-8');
    done(null, faultBody(f.status, faults.retryAfterS));
  }
}
