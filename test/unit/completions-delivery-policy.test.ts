// Forwarding's delivery policy: retries with backoff on 5xx / 429 / connection errors, a 4xx is
// final, Retry-After is honoured, the queue is bounded (overflow → dead letter), what still
// failed becomes a dead letter, and signed forwards verify.
import { describe, expect, it } from 'vitest';
import {
  backoffFor,
  Forwarder,
  POLICY_DEFAULTS,
  retryAfterMs,
  type Outgoing,
} from '../../src/commands/callbacks/shared/delivery-policy.js';
import { verify } from '../../src/commands/callbacks/shared/signing.js';
import { startServer } from '../helpers/http-server.js';
import { waitFor } from '../helpers/wait.js';

const item = (n: number): Outgoing => ({
  id: `msg_${n}`,
  invitationId: String(n),
  status: 'Complete',
  body: Buffer.from(`{"TestInvitationId":${n}}`),
  contentType: 'application/json',
});
const policy = { ...POLICY_DEFAULTS, retries: 3, backoffMs: 1, maxBackoffMs: 5 };

describe('backoff', () => {
  it('doubles per retry within [half, full], capped', () => {
    const p = { ...POLICY_DEFAULTS, backoffMs: 100, maxBackoffMs: 1000 };
    expect([1, 2, 3, 4, 5].map((n) => backoffFor(n, p, () => 0))).toEqual([50, 100, 200, 400, 500]);
    expect([1, 2, 5].map((n) => backoffFor(n, p, () => 1))).toEqual([100, 200, 1000]);
    expect(retryAfterMs('3', 0)).toBe(3000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4000)).toBe(6000);
    expect(retryAfterMs('soon', 0)).toBeNull();
  });
});

describe('Forwarder', () => {
  // The loop that sends the queue ends when it finds it empty; an item enqueued at any moment
  // after that (here: 0 to 12 microtask turns after a delivery was settled) must start a new one.
  it.each(Array.from({ length: 13 }, (_, n) => n))(
    'an item enqueued %i turns after a delivery is still sent',
    async (turns) => {
      const server = await startServer((_r, res) => res.writeHead(204).end());
      try {
        let f: Forwarder | undefined = undefined;
        const delivered: string[] = [];
        f = new Forwarder({
          url: `${server.url}/in`,
          policy,
          sleep: async () => undefined,
          onDelivered: (i) => {
            delivered.push(i.id);
            if (i.id !== 'msg_1') return;
            let p = Promise.resolve();
            for (let t = 0; t < turns; t++) p = p.then(() => undefined);
            void p.then(() => f!.enqueue(item(2)));
          },
        });
        f.enqueue(item(1));
        await waitFor(() => delivered.length >= 2, { what: 'two deliveries' }).catch(() => undefined); // compared below
        expect(delivered).toEqual(['msg_1', 'msg_2']);
      } finally {
        await server.close();
      }
    },
  );

  it('retries 5xx and 429 (waiting Retry-After), then delivers the body unchanged', async () => {
    const server = await startServer((_r, res, n) =>
      n === 1
        ? res.writeHead(503).end()
        : n === 2
          ? res.writeHead(429, { 'retry-after': '0' }).end()
          : res.writeHead(204).end(),
    );
    const waits: number[] = [];
    try {
      const f = new Forwarder({ url: `${server.url}/in`, policy, sleep: async (ms) => void waits.push(ms) });
      const o = await f.deliver(item(1));
      expect(o).toMatchObject({ ok: true, status: 204, tries: 3 });
      expect(waits[1]).toBe(0); // Retry-After: 0
      expect(server.requests.map((r) => r.body)).toEqual(Array(3).fill('{"TestInvitationId":1}'));
    } finally {
      await server.close();
    }
  });

  it('a 4xx is final (one try); still failing after the retries or a refused connection → dead letter', async () => {
    const server = await startServer((req, res) => res.writeHead(req.url === '/bad' ? 400 : 500).end());
    try {
      const dead: Array<{ id: string; tries: number; error: string }> = [];
      const onDeadLetter = (i: Outgoing, o: { tries: number; error: string }) =>
        void dead.push({ id: i.id, tries: o.tries, error: o.error });
      const bad = new Forwarder({ url: `${server.url}/bad`, policy, onDeadLetter, sleep: async () => undefined });
      bad.enqueue(item(1));
      await bad.drain();
      const down = new Forwarder({ url: `${server.url}/down`, policy, onDeadLetter, sleep: async () => undefined });
      down.enqueue(item(2));
      await down.drain();
      const closed = new Forwarder({
        url: 'http://127.0.0.1:9/nobody',
        policy: { ...policy, retries: 1 },
        onDeadLetter,
        sleep: async () => undefined,
      });
      closed.enqueue(item(3));
      await closed.drain();
      expect(dead).toEqual([
        { id: 'msg_1', tries: 1, error: 'HTTP 400' },
        { id: 'msg_2', tries: 4, error: 'HTTP 500' },
        { id: 'msg_3', tries: 2, error: expect.stringMatching(/ECONNREFUSED|fetch failed/) },
      ]);
    } finally {
      await server.close();
    }
  });

  it('the queue is bounded: what does not fit is dead-lettered at once; the rest go out in order', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const server = await startServer((_r, res) => void gate.then(() => res.writeHead(200).end()));
    try {
      const dead: string[] = [];
      const outcomes: string[] = [];
      const f = new Forwarder({
        url: server.url,
        policy: { ...policy, queueSize: 2 },
        onDeadLetter: (i, o) => void dead.push(`${i.id}: ${o.error}`),
        onOutcome: (i, o) => void outcomes.push(`${i.id}: ${o.ok ? 'ok' : `${o.tries} tries`}`),
      });
      const accepted = [1, 2, 3, 4].map((n) => f.enqueue(item(n)));
      // item 1 is being sent (out of the queue), 2 and 3 wait, 4 does not fit
      expect(accepted).toEqual([true, true, true, false]);
      expect(dead).toEqual(['msg_4: forward queue full (2 waiting, 1 KB); 1 dropped so far']); // bytes and a count
      release();
      await f.drain();
      expect(server.requests.map((r) => JSON.parse(r.body).TestInvitationId)).toEqual([1, 2, 3]);
      expect(outcomes).toEqual(['msg_4: 0 tries', 'msg_1: ok', 'msg_2: ok', 'msg_3: ok']);
    } finally {
      await server.close();
    }
  });

  it('signs each try (webhook-id stable, the signature verifies against the body)', async () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const server = await startServer((_r, res, n) => res.writeHead(n === 1 ? 502 : 200).end());
    try {
      const f = new Forwarder({ url: server.url, policy, secret, sleep: async () => undefined });
      expect((await f.deliver(item(9))).ok).toBe(true);
      expect(server.requests).toHaveLength(2);
      for (const r of server.requests) {
        expect(r.headers['webhook-id']).toBe('msg_9');
        expect(verify(secret, r.headers as Record<string, string>, Buffer.from(r.body), new Date()).ok).toBe(true);
      }
      expect(
        verify(
          'whsec_' + Buffer.alloc(24).toString('base64'),
          server.requests[0]!.headers as Record<string, string>,
          Buffer.from(server.requests[0]!.body),
          new Date(),
        ).ok,
      ).toBe(false);
    } finally {
      await server.close();
    }
  });
});
