// Forwarding in lanes, on an injected clock: each invitation's notifications in arrival order, up
// to `concurrency` invitations at once; a failed try waits its backoff with its lane; a circuit
// breaker that opens after K failures in a row keeps the queue (no try spent while it probes
// every T); dead letters only once a notification's own tries are spent; stop leaves the queue.
import { describe, expect, it } from 'vitest';
import { POLICY_DEFAULTS, type Outgoing, type TryResult } from '../../src/commands/callbacks/shared/delivery-policy.js';
import { ForwardLanes, type Clock, type Entry } from '../../src/commands/callbacks/shared/forward-lanes.js';

class FakeClock implements Clock {
  t = 0;
  private timers: Array<{ at: number; fn: () => void; cleared: boolean }> = [];
  now = () => this.t;
  setTimer(ms: number, fn: () => void) {
    const timer = { at: this.t + ms, fn, cleared: false };
    this.timers.push(timer);
    return { clear: () => void (timer.cleared = true) };
  }
  /** Moves time on by `ms`, firing each timer due on the way, in order, settling what it starts. */
  async advance(ms: number) {
    const end = this.t + ms;
    for (;;) {
      await settle();
      const due = this.timers.filter((x) => !x.cleared && x.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      due.cleared = true;
      this.t = Math.max(this.t, due.at);
      due.fn();
    }
    this.t = end;
    await settle();
  }
}
/** Lets every promise chain that can move on do so (no timers: the clock stands still). */
const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
};

const item = (seq: number, inv: string): Outgoing => ({
  seq,
  id: `msg_${seq}`,
  invitationId: inv,
  status: 'Complete',
  body: Buffer.from('{}'),
  contentType: 'application/json',
});

function setup(opts: { concurrency?: number; retries?: number; failures?: number; probeMs?: number } = {}) {
  const clock = new FakeClock();
  const sent: Array<{ seq: number; at: number }> = [];
  const delivered: number[] = [];
  const dead: Array<{ seq: number; tries: number; error: string }> = [];
  const breaker: string[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  let answer: (o: Outgoing) => TryResult = () => ({ ok: true, status: 200, ms: 1 });
  const lanes = new ForwardLanes({
    policy: { ...POLICY_DEFAULTS, retries: opts.retries ?? 5, backoffMs: 500, maxBackoffMs: 30_000 },
    breaker: { failures: opts.failures ?? 5, probeMs: opts.probeMs ?? 30_000 },
    concurrency: opts.concurrency ?? 8,
    clock,
    store: {
      load: (e: Entry) => e.item,
      delivered: async (e) => void delivered.push(e.seq),
      deadLetter: async (e, _i, error) => void dead.push({ seq: e.seq, tries: e.tries, error }),
      retryLater: async () => undefined,
    },
    send: async (o) => {
      sent.push({ seq: o.seq!, at: clock.t });
      maxInFlight = Math.max(maxInFlight, ++inFlight);
      await Promise.resolve();
      inFlight--;
      return answer(o);
    },
    onBreaker: (s) => breaker.push(s),
  });
  const add = (seq: number, inv: string) => lanes.add({ seq, lane: inv, tries: 0, nextMs: 0, item: item(seq, inv) });
  return {
    clock,
    lanes,
    add,
    sent,
    delivered,
    dead,
    breaker,
    max: () => maxInFlight,
    answer: (f: typeof answer) => (answer = f),
  };
}

const down: TryResult = { ok: false, retry: true, error: 'ECONNREFUSED' };

describe('forward lanes', () => {
  it('keeps each invitation in arrival order, several invitations at once, at most `concurrency`', async () => {
    const s = setup({ concurrency: 3 });
    let seq = 0;
    for (let round = 0; round < 4; round++) for (const inv of ['a', 'b', 'c', 'd', 'e']) s.add(++seq, inv);
    await s.clock.advance(0);
    expect(s.delivered).toHaveLength(20);
    expect(s.max()).toBe(3);
    for (const inv of ['a', 'b', 'c', 'd', 'e']) {
      const mine = s.delivered.filter((q) => (q - 1) % 5 === ['a', 'b', 'c', 'd', 'e'].indexOf(inv));
      expect(mine).toEqual([...mine].sort((x, y) => x - y));
    }
  });

  it('a failed try waits its backoff with its lane; the other lanes go on', async () => {
    const s = setup();
    s.answer((o) => (o.invitationId === 'slow' && s.clock.t < 1000 ? down : { ok: true, status: 200, ms: 1 }));
    s.add(1, 'slow');
    s.add(2, 'slow');
    s.add(3, 'fast');
    await s.clock.advance(0);
    expect(s.delivered).toEqual([3]); // 2 waits behind 1
    await s.clock.advance(60_000);
    expect(s.delivered).toEqual([3, 1, 2]);
    expect(s.dead).toEqual([]);
  });

  it('with the target down for 10 minutes: queued, nothing dead-lettered, probes every T, then all delivered once', async () => {
    const s = setup({ retries: 5, failures: 5, probeMs: 30_000 });
    s.answer(() => down);
    for (let i = 1; i <= 40; i++) s.add(i, `inv${i}`);
    await s.clock.advance(10 * 60_000);
    expect(s.dead).toEqual([]);
    expect(s.breaker[0]).toBe('open');
    // while open, only probes: about one per 30 s, not 40 notifications × their retries
    const late = s.sent.filter((x) => x.at >= 60_000);
    expect(late.length).toBeLessThanOrEqual(20);
    expect(late.length).toBeGreaterThanOrEqual(15);
    s.answer(() => ({ ok: true, status: 200, ms: 1 }));
    await s.clock.advance(31_000);
    expect(s.breaker.at(-1)).toBe('closed');
    expect([...s.delivered].sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(s.dead).toEqual([]);
  });

  it('a notification is dead-lettered only once its own tries are spent; a 4xx at once; its lane goes on', async () => {
    const s = setup({ retries: 3, failures: 1000 });
    s.answer((o) =>
      o.seq === 1
        ? { ok: false, retry: true, error: 'HTTP 503' }
        : o.seq === 3
          ? { ok: false, retry: false, error: 'HTTP 400' }
          : { ok: true, status: 200, ms: 1 },
    );
    s.add(1, 'x');
    s.add(2, 'x');
    s.add(3, 'y');
    s.add(4, 'y');
    await s.clock.advance(0);
    expect(s.dead).toEqual([{ seq: 3, tries: 0, error: 'HTTP 400' }]);
    expect(s.delivered).toEqual([4]);
    await s.clock.advance(120_000);
    expect(s.sent.filter((x) => x.seq === 1)).toHaveLength(4); // 1 try + 3 retries
    expect(s.dead.map((d) => [d.seq, d.tries])).toEqual([
      [3, 0],
      [1, 4],
    ]);
    expect(s.delivered).toEqual([4, 2]);
  });

  it('stop sends nothing new and leaves what is queued', async () => {
    const s = setup({ failures: 1 });
    s.answer(() => down);
    for (let i = 1; i <= 5; i++) s.add(i, `i${i}`);
    await s.clock.advance(0);
    expect(await s.lanes.stop(10)).toBe(5);
    const before = s.sent.length;
    await s.clock.advance(600_000);
    expect(s.sent.length).toBe(before);
  });
});
