// Injected faults of the sandbox, for testing a client's resilience (and latency for benchmarks):
// the spec (src/sandbox/fault-spec.ts) applied to service requests.
// Only service requests (/v3/, /v2/) are affected; the control API and pages never are.
// Every request draws exactly three numbers, so with one request at a time the n-th request
// always meets the same fate for a given seed (whichever process serving the state answers it).
import { isServicePath } from '../api/operations/index.js';
import { randomInt } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HoldTimer, monotonicMs } from './hold-timer.js';
import { faultChance, formatFaultSpec, latencyOf, parseFaultSpec, seededRandom, type FaultSpec } from './fault-spec.js';
import { inMemory, type Kept } from './kept.js';
import { seededState } from './stored.js';

const isServiceRequest = isServicePath;

type When = 'before' | 'after';
export type Fault =
  { kind: 'status'; status: number; when: When } | { kind: 'reset'; when: When } | { kind: 'truncate'; when: When };
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

/** What is kept of the faults: the spec (its seed drawn), how many numbers were drawn, the counters. */
interface FaultState {
  spec: FaultSpec;
  draws: number;
  counters: FaultCounters;
}
/** How the faults kept in the state are read back. */
export const KEPT_FAULTS = seededState<FaultState>();
type Bucket = { upTo: number; fault: 'reset' | 'truncate' | number };

/**
 * The faults of one sandbox: the spec, its PRNG and counters of what was injected, kept in the
 * sandbox's state (kept.ts), so every process serving one state draws from one sequence.
 */
export class FaultInjector {
  constructor(
    spec?: FaultSpec | string | null,
    private readonly kept: Kept<FaultState> = inMemory(),
  ) {
    if (spec !== undefined) this.set(spec);
  }

  private static zero(): FaultCounters {
    return { requests: 0, delayed: 0, total: 0, injected: {} };
  }

  get active(): boolean {
    return this.kept.get() !== undefined;
  }

  /** Replaces the spec (null clears it) and restarts the PRNG and the counters. */
  set(spec: FaultSpec | string | null): void {
    const s = typeof spec === 'string' ? parseFaultSpec(spec) : spec;
    if (!s || (faultChance(s) === 0 && !latencyOf(s, () => 1))) return this.kept.set(undefined);
    this.kept.set({ spec: { ...s, seed: s.seed ?? randomInt(2 ** 31) }, draws: 0, counters: FaultInjector.zero() });
  }

  /** Resolves once a change of the spec has committed. */
  saved(): Promise<void> {
    return this.kept.saved();
  }

  /** The spec's latency without a draw (a range's middle): for answers the spec does not decide. */
  typicalLatencyMs(): number {
    const spec = this.kept.get()?.spec;
    return spec ? latencyOf(spec, () => 0.5) : 0;
  }

  get retryAfterS(): number {
    return this.kept.get()?.spec.retryAfterS ?? 1;
  }

  /** The fate of the next service request (three draws, always), or null without faults. */
  decide(): Decision | null {
    const state = this.kept.get();
    if (!state) return null;
    const random = seededRandom(state.spec.seed!, state.draws);
    const [l, k, w] = [random(), random(), random()];
    const s = state.spec;
    const c = state.counters;
    const latencyMs = latencyOf(s, () => l);
    c.requests++;
    if (latencyMs > 0) c.delayed++;
    const bucket = bucketsOf(s).find((b) => k < b.upTo);
    let fault: Fault | null = null;
    if (bucket) {
      const when = bucket.fault === 'truncate' || (bucket.fault !== 429 && w < (s.after ?? 0.5)) ? 'after' : 'before';
      (c.injected[String(bucket.fault)] ??= { before: 0, after: 0 })[when]++;
      c.total++;
      fault =
        typeof bucket.fault === 'string'
          ? { kind: bucket.fault, when }
          : { kind: 'status', status: bucket.fault, when };
    }
    this.kept.set({ ...state, draws: state.draws + 3 });
    return { latencyMs, fault };
  }

  view(): { spec: string | null; counters: FaultCounters } {
    const state = this.kept.get();
    return { spec: state ? formatFaultSpec(state.spec) : null, counters: state?.counters ?? FaultInjector.zero() };
  }
}

/** The spec's faults as cumulative chances: a draw below `upTo` (and above the one before) meets that fault. */
function bucketsOf(s: FaultSpec): Bucket[] {
  let upTo = 0;
  const buckets: Bucket[] = [];
  for (const [code, p] of Object.entries(s.errors ?? {}))
    if (p > 0) buckets.push({ upTo: (upTo += p), fault: Number(code) });
  if (s.tooManyRequests) buckets.push({ upTo: (upTo += s.tooManyRequests), fault: 429 });
  if (s.reset) buckets.push({ upTo: (upTo += s.reset), fault: 'reset' });
  if (s.truncate) buckets.push({ upTo: (upTo += s.truncate), fault: 'truncate' });
  return buckets;
}

const MESSAGES: Record<number, string> = {
  429: 'Too many requests',
  500: 'Internal server error',
  502: 'Bad gateway',
  503: 'Service unavailable',
};
const faultBody = (status: number, retryAfterS: number) =>
  JSON.stringify({
    errors: [
      `${MESSAGES[status] ?? `HTTP ${status}`} (sandbox fault ` +
        `injection)${status === 429 ? `; retry after ${retryAfterS} s` : ''}`,
    ],
  });

/**
 * Adds the fault hooks (always: faults can be switched on at run time). Before the handler: an
 * answer or a destroyed socket in onRequest, so the route never runs. After: in onSend, once
 * the route changed (and persisted) state, the reply is swapped for an error or dropped.
 */
export function registerFaults(app: FastifyInstance, faults: FaultInjector): void {
  const pending = new WeakMap<FastifyRequest, Fault>();
  /** When each delayed request's answer may leave (monotonicMs() ms). */
  const answerAt = new WeakMap<FastifyRequest, number>();
  const timer = new HoldTimer();
  app.addHook('onClose', async () => timer.close());

  app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => {
    if (!isServiceRequest(request.url)) return done();
    const d = faults.decide();
    if (!d) return done();
    const apply = () => {
      if (d.fault?.when === 'after') pending.set(request, d.fault);
      beforeHandler(faults, d.fault, request, reply, done);
    };
    if (!(d.latencyMs > 0)) return apply();
    const at = monotonicMs() + d.latencyMs;
    if (d.fault?.when === 'before') return timer.at(at, apply); // the route never runs: the fault itself waits
    // the route runs now and its answer is held in onSend, so route time is not added to the latency
    answerAt.set(request, at);
    apply();
  });

  app.addHook(
    'onSend',
    (
      request: FastifyRequest,
      reply: FastifyReply,
      payload: unknown,
      done: (err: Error | null, p?: unknown) => void,
    ) => {
      const after = () => {
        const f = pending.get(request);
        if (!f) return done(null, payload);
        pending.delete(request);
        afterHandler(faults, f, request, reply, payload, done);
      };
      const at = answerAt.get(request);
      if (at === undefined) return after();
      answerAt.delete(request);
      timer.at(at, after);
    },
  );
}

/** A fault before the handler answers or drops the connection; none (or one for later) lets the route run. */
function beforeHandler(
  faults: FaultInjector,
  fault: Fault | null,
  request: FastifyRequest,
  reply: FastifyReply,
  done: (err?: Error) => void,
): void {
  if (!fault || fault.when === 'after') return done();
  if (fault.kind !== 'status') {
    reply.hijack(); // the route must not run; nothing is ever sent
    request.raw.socket.destroy();
    return;
  }
  if (fault.status === 429) reply.header('retry-after', String(faults.retryAfterS));
  reply
    .code(fault.status)
    .header('content-type', 'application/json; charset=utf-8')
    .send(faultBody(fault.status, faults.retryAfterS));
}

/** A fault after the handler swaps its answer for an error, cuts it in half or drops the connection. */
function afterHandler(
  faults: FaultInjector,
  f: Fault,
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (err: Error | null, p?: unknown) => void,
): void {
  if (f.kind === 'reset') {
    (payload as { destroy?: () => void } | null)?.destroy?.(); // a PDF stream
    request.raw.socket.destroy();
    return done(null, payload);
  }
  if (f.kind === 'truncate' && (typeof payload === 'string' || Buffer.isBuffer(payload))) {
    reply.removeHeader('content-length');
    return done(null, halfThenFail(payload));
  }
  if (f.kind === 'truncate') return done(null, payload); // no body to cut (empty answer)
  (payload as { destroy?: () => void } | null)?.destroy?.();
  reply.code(f.status).removeHeader('content-length').header('content-type', 'application/json; charset=utf-8');
  done(null, faultBody(f.status, faults.retryAfterS));
}

/** A stream that fails after half the body: fastify has sent the headers and destroys the socket. */
function halfThenFail(payload: string | Buffer): Readable {
  const half = Buffer.from(payload).subarray(0, Math.floor(Buffer.byteLength(payload) / 2));
  let pushed = false;
  return new Readable({
    // read() is called again whenever the consumer wants more: the half goes out once
    read() {
      if (pushed) return;
      pushed = true;
      this.push(half);
      setImmediate(() => this.destroy(new Error('sandbox fault injection: answer truncated')));
    },
  });
}
