// Control API for injected faults: /_sandbox/faults (loopback clients only, like the rest of
// /_sandbox/). POST sets a spec — `{"spec": "5xx=0.1,seed=42"}` or the same pairs as JSON
// fields `{"5xx": 0.1, "seed": 42}` — and restarts the counters; GET shows the spec and what
// was injected so far; DELETE switches faults off and answers the final counters.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { type DeliveryFaults } from '../delivery-faults.js';
import { faultSpecFromObject, FaultSpecError, parseFaultSpec, type FaultSpec } from '../fault-spec.js';
import type { FaultInjector } from '../faults.js';
import { answerLoopbackOnly } from './control.js';

const bad = (reply: FastifyReply, status: number, message: string) => reply.code(status).send({ errors: [message] });

export function registerFaultRoutes(app: FastifyInstance, faults: FaultInjector, deliveryFaults: DeliveryFaults): void {
  registerDeliveryFaultRoutes(app, deliveryFaults);
  app.register(
    async (c) => {
      answerLoopbackOnly(c);
      c.get('/', async () => faults.view());
      c.post('/', async (request, reply) => {
        const body = request.body;
        let spec: FaultSpec;
        try {
          if (typeof body === 'string') spec = parseFaultSpec(body);
          else if (body && typeof body === 'object' && !Array.isArray(body)) {
            const o = body as Record<string, unknown>;
            if ('spec' in o && typeof o.spec !== 'string')
              return bad(reply, 400, 'spec must be a string, e.g. {"spec": "5xx=0.1,429=0.05,seed=42"}');
            spec = typeof o.spec === 'string' ? parseFaultSpec(o.spec) : faultSpecFromObject(o);
          } else
            return bad(
              reply,
              400,
              'Send {"spec": "5xx=0.1,429=0.05,reset=0.05,latency=5ms..50ms,seed=42"} ' +
                'or the same pairs as JSON fields.',
            );
        } catch (err) {
          if (err instanceof FaultSpecError) return bad(reply, 400, err.message);
          throw err;
        }
        faults.set(spec);
        await faults.saved(); // kept in the state: every sandbox on it injects them from now on
        return faults.view();
      });
      c.delete('/', async () => {
        const last = faults.view();
        faults.set(null);
        await faults.saved();
        return { spec: null, counters: last.counters };
      });
    },
    { prefix: '/_sandbox/faults' },
  );
}

// /_sandbox/delivery-faults: the same verbs for callback delivery faults — `{"spec": "drop=0.1,seed=7"}`.
function registerDeliveryFaultRoutes(app: FastifyInstance, faults: DeliveryFaults): void {
  app.register(
    async (c) => {
      answerLoopbackOnly(c);
      c.get('/', async () => faults.view());
      c.post('/', async (request, reply) => {
        const body = request.body as { spec?: unknown } | string | undefined;
        const text =
          typeof body === 'string'
            ? body
            : body && typeof body === 'object' && typeof body.spec === 'string'
              ? body.spec
              : null;
        if (text === null) return bad(reply, 400, 'Send {"spec": "drop=0.1,5xx=0.05,hang=0.02,seed=42"}.');
        try {
          faults.set(text);
        } catch (err) {
          if (err instanceof FaultSpecError) return bad(reply, 400, err.message);
          throw err;
        }
        await faults.saved();
        return faults.view();
      });
      c.delete('/', async () => {
        const last = faults.view();
        faults.set(null);
        await faults.saved();
        return { spec: null, counters: last.counters };
      });
    },
    { prefix: '/_sandbox/delivery-faults' },
  );
}
