// The sandbox's latency timer: a callback never runs before its time, callbacks run in the order
// of their times whatever the order they were set in, and close() releases what is still held.
// Both the worker thread and the setTimeout fallback.
import { describe, expect, it } from 'vitest';
import { PreciseTimer, preciseNow } from '../../src/sandbox/precise-timer.js';

for (const worker of [true, false]) {
  describe(`PreciseTimer (${worker ? 'worker thread' : 'setTimeout fallback'})`, () => {
    it('never calls back early, and in the order of the times', async () => {
      const timer = new PreciseTimer({ worker });
      // the worker starts with the first time set (milliseconds): set the rest once it runs,
      // else a time that passed meanwhile is (rightly) called back at once, out of this order
      await new Promise<void>((done) => timer.at(preciseNow() + 1, done));
      const start = preciseNow();
      const offsets = [80, 20, 50, 21, 34.5, 20.25, 66, 36];
      const seen: Array<{ offset: number; early: number }> = [];
      await new Promise<void>((done) => {
        for (const offset of offsets)
          timer.at(start + offset, () => {
            seen.push({ offset, early: start + offset - preciseNow() });
            if (seen.length === offsets.length) done();
          });
      });
      timer.close();
      expect(seen.map((s) => s.offset)).toEqual([...offsets].sort((a, b) => a - b));
      for (const s of seen) expect(s.early).toBeLessThanOrEqual(0);
    });

    it('a time already past is called back at once', () => {
      const timer = new PreciseTimer({ worker });
      let called = false;
      timer.at(preciseNow() - 1, () => (called = true));
      expect(called).toBe(true);
      timer.close();
    });

    it('close() releases what is held, and later times still work', async () => {
      const timer = new PreciseTimer({ worker });
      let released = 0;
      timer.at(preciseNow() + 60_000, () => released++);
      timer.at(preciseNow() + 30_000, () => released++);
      timer.close();
      expect(released).toBe(2);
      await new Promise<void>((done) => timer.at(preciseNow() + 2, done));
      timer.close();
    });
  });
}

describe('PreciseTimer when its worker dies', () => {
  it('falls back to setTimeout: what is held is still released, never early', async () => {
    const timer = new PreciseTimer();
    await new Promise<void>((done) => timer.at(preciseNow() + 1, done)); // the worker runs
    const at = preciseNow() + 40;
    const released = new Promise<number>((done) => timer.at(at, () => done(preciseNow())));
    await (timer as unknown as { shared: { worker: { terminate(): Promise<number> } } }).shared.worker.terminate();
    expect(await released).toBeGreaterThanOrEqual(at);
    const later = preciseNow() + 5;
    expect(await new Promise<number>((done) => timer.at(later, () => done(preciseNow())))).toBeGreaterThanOrEqual(later);
    timer.close();
  });
});
