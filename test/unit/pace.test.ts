// The pace of a bulk run (src/api/pace.ts), on an injected clock: unpaced until the first 429,
// one cut per round trip, capped by --rate, and — against the sandbox's own token bucket on the
// same clock — a run that finds the limit and keeps to it.
import { describe, expect, it } from 'vitest';
import { Pace } from '../../src/api/pace.js';
import { BackoffGate } from '../../src/api/retry.js';
import { RateLimiter } from '../../src/sandbox/rate-limit.js';

/** A bulk run simulated on one clock: `conc` workers, each request answered `latency` ms after it leaves. */
function simulate(o: {
  perSecond: number;
  burst: number;
  rows: number;
  cap?: number;
  latency?: number;
  conc?: number;
}) {
  let t = 0;
  const events: Array<{ at: number; seq: number; fn: () => void }> = [];
  let seq = 0;
  const at = (when: number, fn: () => void) => {
    events.push({ at: when, seq: seq++, fn });
    events.sort((a, b) => a.at - b.at || a.seq - b.seq);
  };
  const pace = new Pace({ cap: o.cap, now: () => t });
  const bucket = new RateLimiter({ perSecond: o.perSecond, burst: o.burst, retryAfter: false }, () => t);
  const latency = o.latency ?? 20;
  let next = 0;
  let requests = 0;
  let refused = 0;
  const invited = new Map<number, number>();
  let maxGap = Infinity; // the shortest time between two sends, once paced
  let lastSend = -Infinity;
  const worker = () => {
    if (next >= o.rows) return;
    const row = next++;
    const attempt = () => {
      const slot = pace.reserve();
      at(t + slot.waitMs, () => {
        requests++;
        if (pace.current() !== null) maxGap = Math.min(maxGap, t - lastSend);
        lastSend = t;
        const ok = bucket.take('key').ok;
        if (ok) invited.set(row, (invited.get(row) ?? 0) + 1);
        else refused++;
        at(t + latency, () => {
          pace.answered(slot.at, !ok);
          if (ok) worker();
          else attempt();
        });
      });
    };
    attempt();
  };
  for (let i = 0; i < (o.conc ?? 8); i++) worker();
  while (events.length) {
    const e = events.shift()!;
    t = e.at;
    e.fn();
  }
  return { seconds: t / 1000, requests, refused, invited, pace, minGap: maxGap };
}

describe('Pace', () => {
  it('sends at once while no 429 has come (where no limit binds, nothing is paced)', () => {
    const pace = new Pace({ now: () => 0 });
    for (let i = 0; i < 100; i++) expect(pace.reserve().waitMs).toBe(0);
    pace.answered(0, false);
    expect(pace.current()).toBeNull();
  });

  it('a 429 paces the run at 0.95 of what the service admitted in the last second', () => {
    let t = 0;
    const pace = new Pace({ now: () => t });
    for (let i = 0; i < 20; i++) {
      t = 25 + i * 50;
      pace.answered(t, false); // 20 answers in the last second
    }
    t = 1000;
    pace.answered(1000, true);
    expect(pace.current()).toBeCloseTo(19, 5);
    const a = pace.reserve();
    const b = pace.reserve();
    expect(b.at - a.at).toBeCloseTo(1000 / 19, 5); // evenly spaced, no burst
  });

  it('cuts once per round trip: the 429s of requests sent before the cut are its own', () => {
    let t = 0;
    const pace = new Pace({ now: () => t });
    for (let i = 0; i < 10; i++) pace.answered((t = i * 100), false);
    t = 1000;
    pace.answered(990, true);
    const after = pace.current();
    pace.answered(995, true); // sent before the cut
    pace.answered(999, true);
    expect(pace.current()).toBe(after);
    expect(pace.throttled).toBe(3);
    t = 1100;
    pace.answered(1050, true); // sent after it: a second cut
    expect(pace.current()!).toBeLessThan(after!);
  });

  it('--rate paces from the first request and is never exceeded', () => {
    const r = simulate({ perSecond: 1000, burst: 1000, rows: 200, cap: 20 });
    expect(r.refused).toBe(0);
    expect(r.minGap).toBeGreaterThanOrEqual(1000 / 20 - 1e-9);
    expect(r.pace.current()).toBe(20);
  });

  it('a Retry-After holds every request back, paced or not', () => {
    let t = 0;
    for (const gate of [new Pace({ now: () => t }), new BackoffGate(() => t)]) {
      gate.hold(500);
      expect(gate.reserve().waitMs).toBe(500);
      t += 600;
      expect(gate.reserve().waitMs).toBe(0);
    }
  });

  // the pace targets, on the sandbox's bucket (default burst: one second's worth), 20 ms a request
  for (const [perSecond, rows] of [
    [10, 2000],
    [25, 2000],
    [100, 6000],
  ] as const) {
    it(`finds a limit of ${perSecond}/s: goodput ≥ 95 %, 429s ≤ 2 %, every row once`, () => {
      const r = simulate({ perSecond, burst: perSecond, rows });
      expect(rows / r.seconds / perSecond).toBeGreaterThanOrEqual(0.95);
      expect(r.refused / r.requests).toBeLessThanOrEqual(0.02);
      expect(r.invited.size).toBe(rows);
      expect([...r.invited.values()].every((n) => n === 1)).toBe(true);
    });
  }

  it('a ceiling of one request in flight still keeps to the limit', () => {
    const r = simulate({ perSecond: 10, burst: 10, rows: 500, conc: 1 });
    expect(r.refused / r.requests).toBeLessThanOrEqual(0.02);
    expect(rows(r) / r.seconds).toBeGreaterThanOrEqual(9.5);
    function rows(x: { invited: Map<number, number> }) {
      return x.invited.size;
    }
  });
});
