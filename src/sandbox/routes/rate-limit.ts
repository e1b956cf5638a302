// The rate limit on service requests (src/sandbox/rate-limit.ts) and its control API,
// /_sandbox/rate-limit (loopback clients only): GET the spec and counters
// {spec, perSecond, burst, retryAfter, admitted, refused}; POST {"spec": "25/s,burst=5"} sets a
// limit and zeroes the counters; DELETE switches it off and answers the final counters.
// A refused request is answered 429 before the route runs, after the injected latency (a
// gateway's refusal crosses the same network), and never meets an injected fault.
import { isServicePath } from '../../api/operations/index.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { FaultSpecError } from '../fault-spec.js';
import type { FaultInjector } from '../faults.js';
import { HoldTimer, monotonicMs } from '../hold-timer.js';
import { parseRateLimit, type RateLimiter, type RateLimitSpec } from '../rate-limit.js';
import { answerLoopbackOnly } from './control.js';

const isServiceRequest = isServicePath;
/** The vendor's words for a 429 (vendor facts). */
const REFUSED = JSON.stringify({ errors: ['Too many requests or quota exhausted.'] });

export function registerRateLimit(app: FastifyInstance, limiter: RateLimiter, faults: FaultInjector): void {
  const timer = new HoldTimer();
  app.addHook('onClose', async () => timer.close());
  app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => {
    if (!limiter.active || !isServiceRequest(request.url)) return done();
    const key = request.headers['x-api-key'];
    const a = limiter.take(typeof key === 'string' ? key : '');
    if (a.ok) return done();
    const refuse = () => {
      if (a.retryAfterS !== null) reply.header('retry-after', String(a.retryAfterS));
      reply.code(429).header('content-type', 'application/json; charset=utf-8').send(REFUSED);
    };
    const latency = faults.typicalLatencyMs();
    if (latency > 0) timer.at(monotonicMs() + latency, refuse);
    else refuse();
  });

  app.register(
    async (c) => {
      answerLoopbackOnly(c);
      c.get('/', async () => limiter.view());
      c.post('/', async (request, reply) => {
        const body = request.body as { spec?: unknown } | string | undefined;
        const text =
          typeof body === 'string'
            ? body
            : body && typeof body === 'object' && typeof body.spec === 'string'
              ? body.spec
              : null;
        if (text === null)
          return reply
            .code(400)
            .send({ errors: ['Send {"spec": "25/s"} (or "25/s,burst=5,retry-after"; "off" to switch it off).'] });
        let spec: RateLimitSpec | null;
        try {
          spec = parseRateLimit(text);
        } catch (err) {
          if (err instanceof FaultSpecError) return reply.code(400).send({ errors: [err.message] });
          throw err;
        }
        limiter.set(spec);
        return limiter.view();
      });
      c.delete('/', async () => {
        const last = limiter.view();
        limiter.set(null);
        return { ...limiter.view(), admitted: last.admitted, refused: last.refused };
      });
    },
    { prefix: '/_sandbox/rate-limit' },
  );
}
