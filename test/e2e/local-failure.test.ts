// Issue 31: a local error without a code — undici's HTTP parser is WebAssembly, which
// `node --jitless` does not have — was retried 4 times and reported as "network error" (exit 6).
// It is an error on this machine: tried once, exit 1, said as such.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAssess } from '../helpers/cli.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let s: TestSandbox;
beforeAll(async () => {
  s = await startTestSandbox();
});
afterAll(async () => s?.close());

describe('the built CLI under node --jitless (no WebAssembly)', () => {
  it('is not retried and not called a network error', async () => {
    const r = await runAssess(['tests', 'list', '--debug'], { env: { ...s.env, NODE_OPTIONS: '--jitless' } });
    expect(r.stderr).toMatch(/WebAssembly is not defined/);
    expect(r.stderr).toMatch(/not a network error/);
    expect(r.stderr).not.toMatch(/retrying|\(4 attempts\)|failed \(network error\)|check the base URL/);
    expect(r.stderr.match(/--> GET /g)).toHaveLength(1);
    expect(r.code).toBe(1);
  });
});
