// `auth status` answers for scripts also when the key is refused: the status object with
// valid false on stdout, the refusal on stderr, exit 3 (GUIDE §2). A failure that says nothing
// about the key prints no status.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess as run } from '../helpers/in-process.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let s: TestSandbox;
beforeAll(async () => {
  s = await startTestSandbox();
});
afterAll(() => s.close());

const WRONG = 'sk_wrong_key_123456';

describe('auth status', () => {
  it('--json with a refused key: the status object with valid false, exit 3, the refusal and what to check on stderr', async () => {
    const r = await run(['auth', 'status', '--json'], { env: { ...s.env, ASSESS_API_KEY: WRONG } });
    expect(r.code).toBe(3);
    expect(JSON.parse(r.stdout)).toEqual({
      profile: 'default',
      baseUrl: s.sb.baseUrl,
      keySource: 'env',
      key: '****3456',
      valid: false,
    });
    expect(r.stderr).toMatch(/^error: the service refused the key \(HTTP 401: .*\)\n {2}check ASSESS_API_KEY/m);
    expect(r.stdout + r.stderr).not.toContain(WRONG);
  });

  it('--json valid picks the field; piped TSV prints the same status', async () => {
    const picked = await run(['auth', 'status', '--json', 'valid'], { env: { ...s.env, ASSESS_API_KEY: WRONG } });
    expect([picked.code, JSON.parse(picked.stdout)]).toEqual([3, { valid: false }]);
    const tsv = await run(['auth', 'status'], { env: { ...s.env, ASSESS_API_KEY: WRONG } });
    expect(tsv.code).toBe(3);
    expect(tsv.stdout).toMatch(/^valid\tno$/m);
  });

  it('an accepted key: valid true, exit 0', async () => {
    const r = await run(['auth', 'status', '--json'], { env: s.env });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ keySource: 'env', valid: true });
  });

  it('an unreachable service says nothing about the key: no status, exit 6', async () => {
    const r = await run(['auth', 'status', '--json', '--timeout', '5'], {
      env: { ...s.env, ASSESS_BASE_URL: 'http://127.0.0.1:9' },
    });
    expect(r.code).toBe(6);
    expect(r.stdout).toBe('');
  });
});
