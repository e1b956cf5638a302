// The sandbox's latency timer: a callback never runs before its time, callbacks run in the order
// of their times whatever the order they were set in, and close() releases what is still held.
import { describe, expect, it } from 'vitest';
import { HoldTimer, monotonicMs } from '../../src/sandbox/hold-timer.js';

describe('HoldTimer', () => {
  it('never calls back early, and in the order of the times', async () => {
    const timer = new HoldTimer();
    await new Promise<void>((done) => timer.at(monotonicMs() + 1, done));
    const start = monotonicMs();
    const offsets = [80, 20, 50, 21, 34.5, 20.25, 66, 36];
    const seen: Array<{ offset: number; early: number }> = [];
    await new Promise<void>((done) => {
      for (const offset of offsets)
        timer.at(start + offset, () => {
          seen.push({ offset, early: start + offset - monotonicMs() });
          if (seen.length === offsets.length) done();
        });
    });
    timer.close();
    expect(seen.map((s) => s.offset)).toEqual([...offsets].sort((a, b) => a - b));
    for (const s of seen) expect(s.early).toBeLessThanOrEqual(0);
  });

  it('a time already past is called back at once', () => {
    const timer = new HoldTimer();
    let called = false;
    timer.at(monotonicMs() - 1, () => (called = true));
    expect(called).toBe(true);
    timer.close();
  });

  it('close() releases what is held, and later times still work', async () => {
    const timer = new HoldTimer();
    let released = 0;
    timer.at(monotonicMs() + 60_000, () => released++);
    timer.at(monotonicMs() + 30_000, () => released++);
    timer.close();
    expect(released).toBe(2);
    await new Promise<void>((done) => timer.at(monotonicMs() + 2, done));
    timer.close();
  });
});
