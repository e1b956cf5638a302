// `assess auth login` checks the key against the service before it saves it, and says for which
// profile and base URL it saved it: refused → exit 3, unreachable → exit 6, nothing saved either
// way; `--no-verify` (the older `--skip-verify`) saves it unchecked.
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let s: TestSandbox;
beforeAll(async () => {
  s = await startTestSandbox();
});
afterAll(async () => s?.close());

/** A login into a fresh config dir; `saved()` reads the key the config file holds afterwards. */
async function login(args: string[], key: string) {
  const dir = tempDir('assess-login-');
  const r = await runInProcess(['auth', 'login', '--key-stdin', ...args], { configDir: dir.dir, stdin: `${key}\n` });
  const file = join(dir.dir, 'config.json');
  const saved = existsSync(file)
    ? (JSON.parse(readFileSync(file, 'utf8')) as { profiles?: Record<string, { apiKey?: string }> })
    : {};
  dir.cleanup();
  return { ...r, saved: (profile = 'default') => saved.profiles?.[profile]?.apiKey };
}

/** A loopback port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as { port: number };
  await new Promise((r) => srv.close(r));
  return port;
}

describe('assess auth login', () => {
  it('an accepted key: saved, and the line names the profile, the file and the service that accepted it', async () => {
    const r = await login(['--profile', 'work', '--base-url', s.sb.baseUrl], s.sb.keys[0]!);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      new RegExp(
        `^Saved key \\*{4}\\w{4} to profile 'work' \\(.*config\\.json\\): the service at ` +
          `${s.sb.baseUrl} accepted it\\.$`,
        'm',
      ),
    );
    expect(r.saved('work')).toBe(s.sb.keys[0]);
  });

  it('a refused key: exit 3, nothing saved', async () => {
    const r = await login(['--base-url', s.sb.baseUrl], 'not-a-key-the-sandbox-knows');
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/the service refused this key .*nothing was saved/);
    expect(r.stderr).toMatch(/--no-verify/);
    expect(r.saved()).toBeUndefined();
  });

  it('an unreachable service: exit 6, nothing saved, and the hint says so', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const r = await login(['--base-url', url, '--timeout', '5'], 'any-key-1234');
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/nothing was saved; check the address given with --base-url/);
    expect(r.saved()).toBeUndefined();
  });

  it.each([['--no-verify'], ['--skip-verify']])('%s: saved unchecked, and the line says so', async (flag) => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const r = await login(['--base-url', url, flag], 'unchecked-key-5678');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /Saved key \*{4}5678 to profile 'default' \(.*\) for http:\/\/127\.0\.0\.1:\d+, unchecked \(--no-verify\)\./,
    );
    expect(r.saved()).toBe('unchecked-key-5678');
  });
});
