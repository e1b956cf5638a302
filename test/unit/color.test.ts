import { describe, expect, it } from 'vitest';
import { decideColor } from '../../src/cli/globals.js';

describe('decideColor', () => {
  it('FORCE_COLOR=0 or false turns colour off on a terminal, as chalk reads it', () => {
    expect(decideColor({ FORCE_COLOR: '0' }, true, true)).toBe(false);
    expect(decideColor({ FORCE_COLOR: 'false' }, true, true)).toBe(false);
  });

  it('FORCE_COLOR=1/2/3 turns colour on also piped; unset or empty leaves it to the terminal', () => {
    for (const v of ['1', '2', '3', 'true']) expect(decideColor({ FORCE_COLOR: v }, false, true)).toBe(true);
    expect(decideColor({}, true, true)).toBe(true);
    expect(decideColor({ FORCE_COLOR: '' }, false, true)).toBe(false);
  });

  it('NO_COLOR, --no-color and TERM=dumb win over FORCE_COLOR', () => {
    expect(decideColor({ NO_COLOR: '1', FORCE_COLOR: '1' }, true, true)).toBe(false);
    expect(decideColor({ FORCE_COLOR: '1' }, true, false)).toBe(false);
    expect(decideColor({ TERM: 'dumb', FORCE_COLOR: '1' }, true, true)).toBe(false);
    expect(decideColor({ NO_COLOR: '' }, true, true)).toBe(true);
  });
});
