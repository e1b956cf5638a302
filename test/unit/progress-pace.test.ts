// The progress line shows the current pace (items over the last seconds, not the run's average)
// and, once the run is paced, the pace it keeps to.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Progress } from '../../src/bulk/progress.js';

describe('Progress', () => {
  it('the rate is the recent one; the paced rate is shown once there is one', () => {
    let t = 0;
    let paced: number | null = null;
    const p = new Progress({
      stream: new Writable(),
      enabled: false,
      total: 2000,
      label: 'Inviting',
      now: () => t,
      pace: () => paced,
    });
    // 10 s at 100/s, then 4 s at 25/s: the line says 25/s, not the average (~81/s)
    for (let s = 1; s <= 14; s++) {
      t = s * 1000;
      p.tick(s <= 10 ? 100 : 25);
      p.line();
    }
    expect(p.line()).toMatch(/ 25\/s · ETA /);
    expect(p.line()).not.toMatch(/paced/);
    paced = 24.6; // shown to the unit at 10/s and above
    expect(p.line()).toMatch(/ 25\/s \(paced 25\/s\) · ETA /);
  });
});
