// Which undici a Node gets (src/api/undici.ts): undici 8 from Node 22.19 (its engines), 7 before.
import { describe, expect, it } from 'vitest';
import { supportsUndici8 } from '../../src/api/undici.js';

describe('supportsUndici8', () => {
  it.each([
    ['20.20.2', false],
    ['22.18.0', false],
    ['22.19.0', true],
    ['22.23.3', true],
    ['23.0.0', true],
    ['24.21.0', true],
    ['26.10.0', true],
  ])('Node %s → %s', (version, modern) => {
    expect(supportsUndici8(version)).toBe(modern);
  });

  it('loads a working undici on this Node', async () => {
    const { loadUndici } = await import('../../src/api/undici.js');
    const undici = await loadUndici();
    expect(typeof undici.request).toBe('function');
    expect(typeof undici.Agent).toBe('function');
  });
});
