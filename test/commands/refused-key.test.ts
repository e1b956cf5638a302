// A key the service refuses (401): the hint names where the key came from — the file, the
// variable, standard input or the profile — and the fix for that place.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { runInProcess as run } from '../helpers/in-process.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let s: TestSandbox;
beforeAll(async () => {
  s = await startTestSandbox();
});
afterAll(() => s.close());

const WRONG = 'sk_wrong_key_123456';
const hintOf = (stderr: string) => /^error: .*HTTP 401.*\n {2}(.*)$/m.exec(stderr)?.[1];

describe('a refused key', () => {
  it('--api-key-file: names the file', async () => {
    const dir = tempDir();
    const file = join(dir.dir, 'bad.key');
    writeFileSync(file, `${WRONG}\n`, { mode: 0o600 });
    const r = await run(['--api-key-file', file, 'tests', 'list'], { env: { ...s.env, ASSESS_API_KEY: undefined } });
    dir.cleanup();
    expect(r.code).toBe(3);
    expect(hintOf(r.stderr)).toBe(
      `the key in ${file} (--api-key-file) was refused; put the account's current key in that file`,
    );
  });

  it('ASSESS_API_KEY: names the variable', async () => {
    const r = await run(['tests', 'list'], { env: { ...s.env, ASSESS_API_KEY: WRONG } });
    expect(r.code).toBe(3);
    expect(hintOf(r.stderr)).toBe(
      "check ASSESS_API_KEY: the key it holds was refused; set the account's current key there, " +
        "or unset it to use the key stored in profile 'default' (assess auth login)",
    );
  });

  it('--key-stdin: names standard input', async () => {
    const r = await run(['--key-stdin', 'tests', 'list'], {
      env: { ...s.env, ASSESS_API_KEY: undefined },
      stdin: `${WRONG}\n`,
    });
    expect(r.code).toBe(3);
    expect(hintOf(r.stderr)).toBe("the key piped to --key-stdin was refused; pipe the account's current key");
  });

  it('the profile: names it, and how to log in again', async () => {
    const cfg = tempDir();
    const login = await run(
      ['auth', 'login', '--profile', 'staging', '--key-stdin', '--no-verify', '--base-url', s.sb.baseUrl],
      { configDir: cfg.dir, stdin: `${WRONG}\n`, env: { ASSESS_API_KEY: undefined } },
    );
    expect(login.code, login.stderr).toBe(0);
    const r = await run(['--profile', 'staging', 'tests', 'list'], {
      configDir: cfg.dir,
      env: { ASSESS_API_KEY: undefined },
    });
    cfg.cleanup();
    expect(r.code).toBe(3);
    expect(hintOf(r.stderr)).toBe(
      "the key stored in profile 'staging' was refused; log in again: assess auth login --profile staging",
    );
  });
});
