// Callback delivery faults (receiver side): the spec, drop (the notification is lost, nothing
// is sent, the delivery is failed), 5xx and hang per try (nothing sent; retried like a real
// failure), reproducible with a seed, and the /_sandbox/delivery-faults control API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FaultSpecError } from '../../src/sandbox/fault-spec.js';
import { DeliveryFaults } from '../../src/sandbox/delivery-faults.js';
import { parseDeliveryFaultSpec } from '../../src/sandbox/delivery-fault-spec.js';
import { startSandbox, type Delivery, type RunningSandbox } from '../../src/sandbox/index.js';
import { startServer } from '../helpers/http-server.js';
import { waitFor } from '../helpers/wait.js';

describe('delivery fault spec', () => {
  it('parses drop, 5xx, hang and seed; refuses unknown keys and bad chances', () => {
    expect(parseDeliveryFaultSpec('drop=0.1,5xx=5%,hang=0.02,seed=7')).toEqual({
      drop: 0.1,
      error5xx: 0.05,
      hang: 0.02,
      seed: 7,
    });
    expect(parseDeliveryFaultSpec('off')).toEqual({});
    expect(() => parseDeliveryFaultSpec('lose=0.1')).toThrow(FaultSpecError);
    expect(() => parseDeliveryFaultSpec('drop=2')).toThrow(/probability/);
    expect(() => parseDeliveryFaultSpec('5xx=0.7,hang=0.5')).toThrow(/more than 1/);
  });

  it('a seed makes the drops repeat exactly; the rate is about the chance', () => {
    const fates = (seed: number) => {
      const f = new DeliveryFaults({ drop: 0.1, seed });
      return Array.from({ length: 1000 }, () => f.dropNotification());
    };
    expect(fates(42)).toEqual(fates(42));
    const dropped = fates(42).filter(Boolean).length;
    expect(dropped).toBeGreaterThan(60);
    expect(dropped).toBeLessThan(140);
    expect(new DeliveryFaults(null).dropNotification()).toBe(false);
  });
});

describe('delivery faults in a running sandbox', () => {
  let sb: RunningSandbox;
  let receiver: Awaited<ReturnType<typeof startServer>>;
  const control = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${sb.baseUrl}/_sandbox${path}`, {
      method,
      headers: body ? { 'content-type': 'application/json' } : {},
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  const startedWithCallback = async (email: string) => {
    const res = await fetch(`${sb.baseUrl}/v3/tests/1001/invite`, {
      method: 'POST',
      headers: { 'X-API-KEY': sb.keys[0]!, 'content-type': 'application/json' },
      body: JSON.stringify({ email, name: 'Fault Candidate', callbackUrl: `${receiver.url}/hook` }),
    });
    const id = ((await res.json()) as { testInvitationId: number }).testInvitationId;
    expect((await control('POST', `/invitations/${id}/simulate`, { to: 'start' })).status).toBe(200);
    return id;
  };
  const deliveryOf = (id: number) =>
    waitFor(async () => {
      const d = (await control('GET', `/deliveries?invitation=${id}`)).body.deliveries as Delivery[];
      return d.length && d[0]!.state !== 'pending' ? d[0]! : null;
    });

  beforeAll(async () => {
    sb = await startSandbox({ port: 0, delivery: { timeoutMs: 150 } });
    receiver = await startServer((_r, res) => res.writeHead(200).end());
  });
  afterAll(async () => {
    await sb.close();
    await receiver.close();
  });

  it('drop=1: nothing reaches the receiver, the delivery is failed saying why; DELETE switches it off', async () => {
    const set = await control('POST', '/delivery-faults', { spec: 'drop=1,seed=3' });
    expect(set.body.spec).toBe('drop=1,seed=3');
    const before = receiver.requests.length;
    const id = await startedWithCallback('dropped@example.com');
    const d = await deliveryOf(id);
    expect(d.state).toBe('failed');
    expect(d.attempts.map((a) => a.error)).toEqual(['dropped (sandbox delivery fault)']);
    expect(receiver.requests.length).toBe(before);
    const off = await control('DELETE', '/delivery-faults');
    expect(off.body).toMatchObject({ spec: null, counters: { notifications: 1, dropped: 1 } });
    const id2 = await startedWithCallback('kept@example.com');
    expect((await deliveryOf(id2)).state).toBe('delivered');
  });

  it('5xx=1 and hang=1: every try fails without reaching the receiver (5 tries, then failed)', async () => {
    for (const [spec, error] of [
      ['5xx=1', 'HTTP 503 (sandbox delivery fault)'],
      ['hang=1', 'timed out after 150 ms (sandbox delivery fault)'],
    ] as const) {
      await control('POST', '/delivery-faults', { spec });
      const before = receiver.requests.length;
      const id = await startedWithCallback(`${spec.slice(0, 3)}@example.com`);
      const d = await deliveryOf(id);
      expect(d.state).toBe('failed');
      expect(d.attempts.map((a) => a.error)).toEqual(Array(5).fill(error));
      expect(receiver.requests.length).toBe(before);
      expect((await control('GET', '/delivery-faults')).body.counters.tries).toBe(5);
    }
    await control('DELETE', '/delivery-faults');
  });

  it('a bad spec is a 400 naming the problem', async () => {
    const r = await control('POST', '/delivery-faults', { spec: 'drop=lots' });
    expect(r.status).toBe(400);
    expect(r.body.errors[0]).toMatch(/drop=lots: must be a probability/);
    expect((await control('POST', '/delivery-faults', { nope: 1 })).status).toBe(400);
  });
});
