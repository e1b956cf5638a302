// src/api/undici.ts hides globalThis.Headers while undici evaluates (so Node does not load its
// own undici for it) and must put Node's global back, working, whatever happens.
import { describe, expect, it } from 'vitest';
import { loadUndici } from '../../src/api/undici.js';

describe('loadUndici', () => {
  it('gives undici, once, and leaves the global Headers as Node made it', async () => {
    const before = Object.getOwnPropertyDescriptor(globalThis, 'Headers');
    const first = loadUndici();
    expect(loadUndici()).toBe(first); // one load per process
    const undici = await first;
    expect(typeof undici.request).toBe('function');
    expect(Object.getOwnPropertyDescriptor(globalThis, 'Headers')).toEqual(before);
    const h = new globalThis.Headers({ 'X-Test': 'yes' });
    expect(h.get('x-test')).toBe('yes');
  });
});
