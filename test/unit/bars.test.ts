import { describe, expect, it } from 'vitest';
import { bar, wantsAscii } from '../../src/output/bars.js';

describe('bar', () => {
  it('is always exactly the width asked for', () => {
    for (const f of [0, 0.01, 0.33, 0.5, 0.7, 0.999, 1, 2, -1, Number.NaN]) {
      expect([...bar(f, 20, { ascii: false })]).toHaveLength(20);
      expect(bar(f, 20, { ascii: true })).toHaveLength(20);
    }
  });
  it('fills in eighths with block elements and in whole cells in ASCII', () => {
    expect(bar(0.5, 10, { ascii: false })).toBe('█████░░░░░');
    expect(bar(0.7, 10, { ascii: true })).toBe('#######...');
    expect(bar(0.05, 10, { ascii: false })).toBe('▌░░░░░░░░░');
    expect(bar(1, 4, { ascii: false })).toBe('████');
    expect(bar(Number.NaN, 4, { ascii: true })).toBe('....');
  });
  it('asks for ASCII on TERM=dumb or the flag', () => {
    expect(wantsAscii({ TERM: 'dumb' })).toBe(true);
    expect(wantsAscii({ TERM: 'xterm' }, true)).toBe(true);
    expect(wantsAscii({ TERM: 'xterm-256color' })).toBe(false);
  });
});
