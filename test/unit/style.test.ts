import { describe, expect, it } from 'vitest';
import { PLAIN, styleFor } from '../../src/output/style.js';

describe('styleFor', () => {
  it('paints nothing without colour', async () => {
    const s = await styleFor(false);
    expect(s).toBe(PLAIN);
    expect([s.level, s.bold('a'), s.dim('b'), s.green('c'), s.red('d'), s.yellow('e')]).toEqual([
      0,
      'a',
      'b',
      'c',
      'd',
      'e',
    ]);
  });

  it("paints with chalk's basic colours when colour is on", async () => {
    const s = await styleFor(true);
    expect(s.level).toBe(1);
    expect(s.red('no')).toBe('\u001b[31mno\u001b[39m');
    expect(s.bold('Name')).toBe('\u001b[1mName\u001b[22m');
  });
});
