// Injected faults of the sandbox, for benchmarks and for testing a client's resilience. A
// small spec object so that more kinds (random 429/5xx, resets) can be added beside latency
// without touching the server: `registerFaults(app, spec)` is the one hook the server calls.
//   { latencyMs: 5 }          every service request waits 5 ms before it is handled
//   { latencyMs: [2, 10] }    a uniform random wait between 2 and 10 ms
// Only service requests (/v3/, /v2/) are affected; the control API and pages answer at once.
import type { FastifyInstance, FastifyRequest } from 'fastify';

export interface FaultSpec {
  latencyMs?: number | [number, number];
}

const isServiceRequest = (url: string) => url.startsWith('/v3/') || url.startsWith('/v2/');

export function latencyOf(spec: FaultSpec, random: () => number = Math.random): number {
  const l = spec.latencyMs;
  if (l === undefined) return 0;
  if (typeof l === 'number') return Math.max(0, l);
  const [min, max] = l;
  return Math.max(0, min + random() * (max - min));
}

/** Adds the fault hooks. The spec is read on every request, so a caller may change it live. */
export function registerFaults(app: FastifyInstance, spec: FaultSpec | undefined): void {
  if (!spec) return;
  app.addHook('onRequest', async (request: FastifyRequest) => {
    if (!isServiceRequest(request.url)) return;
    const ms = latencyOf(spec);
    if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
  });
}

/**
 * `5ms`, `5`, `0.5s`, `2-10ms` → a latency (ms or [min, max]); a string describing the
 * problem otherwise.
 */
export function parseLatency(text: string): number | [number, number] | string {
  const m = /^\s*(\d+(?:\.\d+)?)(?:\s*-\s*(\d+(?:\.\d+)?))?\s*(ms|s)?\s*$/i.exec(text);
  if (!m) return `'${text}' is not a latency; use e.g. 5ms, 0.2s or 2-10ms`;
  const unit = (m[3] ?? 'ms').toLowerCase() === 's' ? 1000 : 1;
  const a = Number(m[1]) * unit;
  if (m[2] === undefined) return a;
  const b = Number(m[2]) * unit;
  if (b < a) return `'${text}': the upper bound must not be below the lower one`;
  return [a, b];
}
