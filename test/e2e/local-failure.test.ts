// A local error without a code — undici's HTTP parser is WebAssembly, which
// `node --jitless` does not have — was retried 4 times and reported as "network error" (exit 6);
// since start-up changed it crashed instead, with a stack trace from Node's own copy
// of undici. It is an error on this machine: said before any request, exit 1, not retried.
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
    const r = await runAssess(['tests', 'list'], { env: { ...s.env, NODE_OPTIONS: '--jitless' } });
    expect(r.stderr).toMatch(
      /^error: GET .*\/v3\/tests.* could not be made on this machine: WebAssembly is not available .*--jitless.*not a network error; not retried/m,
    );
    expect(r.stderr).not.toMatch(/attempts\)|failed \(network error\)|check the base URL/);
    expect(r.stderr).not.toMatch(/ReferenceError|node:internal|at /); // no crash, no stack trace
    expect(r.code).toBe(1);
    expect((await s.requests()).filter((q) => q.path.startsWith('/v3/'))).toEqual([]);
  });
});
