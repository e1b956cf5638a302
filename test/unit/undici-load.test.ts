// src/api/undici.ts: undici is loaded on the first request, once per process.
import { describe, expect, it } from 'vitest';
import { loadedUndici, loadUndici } from '../../src/api/undici.js';

describe('loadUndici', () => {
  it('gives undici, once, and then without waiting', async () => {
    const first = loadUndici();
    expect(loadUndici()).toBe(first); // one load per process
    const undici = await first;
    expect(typeof undici.request).toBe('function');
    expect(loadedUndici()).toBe(undici);
  });
});
