// src/api/undici.ts: undici is loaded on the first request, once per process.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadedUndici, loadUndici } from '../../src/api/undici.js';

const MODULE = fileURLToPath(new URL('../../src/api/undici.ts', import.meta.url));

describe('loadUndici', () => {
  it('gives undici, once, and then without waiting', async () => {
    const first = loadUndici();
    expect(loadUndici()).toBe(first); // one load per process
    const undici = await first;
    expect(typeof undici.request).toBe('function');
    expect(loadedUndici()).toBe(undici);
  });

  it("loads without Node's own copy of undici, and leaves Node's Headers in place", () => {
    // a fresh process: this one's Node may have loaded its copy already
    const script = [
      `import { loadUndici } from ${JSON.stringify(MODULE)};`,
      "const nodes = () => process.moduleLoadList.some((m) => m.includes('deps/undici'));",
      'const before = nodes();',
      'await loadUndici();',
      'const during = nodes();',
      'const own = new Response().headers instanceof globalThis.Headers;',
      "const described = Object.getOwnPropertyDescriptor(globalThis, 'Headers');",
      'globalThis.Headers = Map;',
      'console.log(JSON.stringify({ before, during, own, enumerable: described.enumerable, set: Headers === Map }));',
    ].join('\n');
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
    });
    expect(JSON.parse(out)).toEqual({ before: false, during: false, own: true, enumerable: false, set: true });
  });
});
