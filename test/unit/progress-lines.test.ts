// A bulk run whose stderr is not a terminal (a CI log) says how far it is every 10 s, one plain
// line each, so a CI system does not take it for a hung job. The clock here is the test's: time
// moves when the test says, and the timer fires when the time it was set for has come.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { LINE_EVERY_MS, Progress, progressMode, type Every } from '../../src/bulk/progress.js';

/** A clock the test moves: `every` timers fire as `advance` passes their times. */
function testClock() {
  let t = 1_000_000;
  const timers: Array<{ ms: number; next: number; fn: () => void; on: boolean }> = [];
  const every: Every = (ms, fn) => {
    const timer = { ms, next: t + ms, fn, on: true };
    timers.push(timer);
    return () => (timer.on = false);
  };
  const advance = (ms: number, onStep: () => void = () => undefined) => {
    for (const end = t + ms; t < end;) {
      t = Math.min(end, t + 1000);
      onStep();
      for (const timer of timers)
        while (timer.on && timer.next <= t) {
          timer.next += timer.ms;
          timer.fn();
        }
    }
  };
  return { now: () => t, every, advance, active: () => timers.filter((x) => x.on).length };
}

function sink() {
  const chunks: string[] = [];
  const stream = new Writable({ write: (c, _e, cb) => (chunks.push(String(c)), cb()) });
  return { stream, text: () => chunks.join('') };
}

describe('progress of a bulk run in a log', () => {
  it('one line every 10 s of the run: how many of how many, the rate, the time left', () => {
    const clock = testClock();
    const out = sink();
    const p = new Progress({ stream: out.stream, mode: 'lines', total: 2000, label: 'Inviting', ...clock });
    clock.advance(9_999, () => p.tick(10)); // 10 items a second
    expect(out.text()).toBe('');
    clock.advance(1, () => undefined);
    clock.advance(25_000, () => p.tick(10));
    expect(out.text().split('\n').filter(Boolean)).toEqual([
      'Inviting: 100 of 2000 (5 %), 10/s, about 3m10s left',
      'Inviting: 200 of 2000 (10 %), 10/s, about 3m00s left',
      'Inviting: 300 of 2000 (15 %), 10/s, about 2m50s left',
    ]);
    expect(out.text()).not.toMatch(/\r|\u001b/); // plain lines for a log: no bar, no escapes
    p.stop();
    clock.advance(60_000);
    expect(out.text().split('\n').filter(Boolean)).toHaveLength(3);
    expect(clock.active()).toBe(0);
  });

  it('a stalled run says so in its lines (0/s, no time left guessed)', () => {
    const clock = testClock();
    const out = sink();
    const p = new Progress({ stream: out.stream, mode: 'lines', total: 50, label: 'Exporting', ...clock });
    clock.advance(LINE_EVERY_MS);
    expect(out.text()).toBe('Exporting: 0 of 50 (0 %), 0.0/s\n');
    p.stop();
  });

  it('the bar on a terminal, lines when piped, nothing with -q; nothing to count, no timer', () => {
    expect(progressMode({ stderrIsTTY: true }, false)).toBe('bar');
    expect(progressMode({ stderrIsTTY: false }, false)).toBe('lines');
    expect(progressMode({ stderrIsTTY: false }, true)).toBe('off');
    expect(progressMode({ stderrIsTTY: true }, true)).toBe('off');
    const clock = testClock();
    new Progress({ stream: sink().stream, mode: 'lines', total: 0, label: 'Inviting', ...clock });
    new Progress({ stream: sink().stream, mode: 'off', total: 10, label: 'Inviting', ...clock });
    expect(clock.active()).toBe(0);
  });
});
