// Where requests go: base URLs validated and normalised in one place (src/config/base-url.ts),
// no built-in production address, v2 following v3, and hints that point at the real problem.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { runInProcess as run } from '../helpers/in-process.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let s: TestSandbox;
beforeAll(async () => {
  s = await startTestSandbox();
});
afterAll(() => s.close());

const key = () => s.env.ASSESS_API_KEY!;

describe('base URLs', () => {
  it('none configured: exit 3 saying how to set one (no placeholder host is called)', async () => {
    const r = await run(['tests', 'list'], { env: { ASSESS_API_KEY: key() } });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/no base URL configured for profile 'default'/);
    expect(r.stderr).toMatch(/assess auth login --base-url URL/);
  });

  it('ASSESS_BASE_URL without a scheme is exit 2 with the likely fix', async () => {
    const r = await run(['tests', 'list'], { env: { ASSESS_API_KEY: key(), ASSESS_BASE_URL: '127.0.0.1:4010' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /ASSESS_BASE_URL: '127\.0\.0\.1:4010' is not an http\(s\) URL \(did you mean http:\/\/127\.0\.0\.1:4010 \?\)/,
    );
  });

  it('a trailing /v3 is taken off with a notice (no /v3/v3/tests)', async () => {
    const before = (await s.requests()).length;
    const r = await run(['tests', 'list', '--json'], {
      env: { ASSESS_API_KEY: key(), ASSESS_BASE_URL: `${s.sb.baseUrl}/v3/` },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/ASSESS_BASE_URL ends in \/v3\/?; the version is added to every path/);
    expect((await s.requests()).slice(before).map((q) => q.path)).toEqual(['/v3/tests?pageNo=1&pageSize=20']);
  });

  it('the v2 base follows the v3 base unless set (no placeholder host)', async () => {
    const r = await run(['--api', 'v2', 'tests', 'list', '--json'], {
      env: { ASSESS_API_KEY: key(), ASSESS_BASE_URL: s.sb.baseUrl },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).length).toBeGreaterThan(0);
  });

  it('auth login --base-url stores it (normalised); v3 and v2 commands then use it', async () => {
    const cfg = tempDir();
    const login = await run(['auth', 'login', '--key-stdin', '--base-url', `${s.sb.baseUrl}/v3`], {
      configDir: cfg.dir,
      stdin: key(),
    });
    expect(login.code, login.stderr).toBe(0);
    for (const argv of [
      ['tests', 'list'],
      ['--api', 'v2', 'tests', 'list'],
    ]) {
      const r = await run(argv, { configDir: cfg.dir });
      expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(0);
    }
    const got = await run(['config', 'get', 'base-url'], { configDir: cfg.dir });
    expect(got.stdout.trim()).toBe(s.sb.baseUrl);
    cfg.cleanup();
  });

  it('auth login with no base URL anywhere and no terminal: exit 2 naming --base-url', async () => {
    const r = await run(['auth', 'login', '--key-stdin'], { stdin: key() });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--base-url: required: no base URL is configured/);
  });

  it('config set base-url takes off a trailing /v3 and says so', async () => {
    const cfg = tempDir();
    const r = await run(['config', 'set', 'base-url', 'https://api.example.com/v3'], { configDir: cfg.dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /base-url ends in \/v3; the version is added to every path, so using https:\/\/api\.example\.com/,
    );
    expect((await run(['config', 'get', 'base-url'], { configDir: cfg.dir })).stdout.trim()).toBe(
      'https://api.example.com',
    );
    cfg.cleanup();
  });
});

describe('hints that point at the real problem', () => {
  it('an unknown invitation says to check the id, not the key (exit 4, though the service answers 401)', async () => {
    const r = await run(['report', '123456789'], { env: s.env });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/check the id: the service does not know it in this account/);
    expect(r.stderr).not.toMatch(/auth status/);
  });
});

describe('profiles', () => {
  it('auth list shows each profile with its base URL, masked key and which is in use', async () => {
    const cfg = tempDir();
    for (const p of ['default', 'staging']) {
      const r = await run(['auth', 'login', '--key-stdin', '--base-url', s.sb.baseUrl, '--profile', p], {
        configDir: cfg.dir,
        stdin: key(),
      });
      expect(r.code, r.stderr).toBe(0);
    }
    const r = await run(['auth', 'list', '--json', '--profile', 'staging'], { configDir: cfg.dir });
    expect(r.code, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as Array<{ profile: string; current: boolean; baseUrl: string; key: string }>;
    expect(rows.map((x) => [x.profile, x.current])).toEqual([
      ['default', false],
      ['staging', true],
    ]);
    expect(rows[0]!.key).toMatch(/^\*+.{4}$/);
    expect(r.stdout).not.toContain(key());
    cfg.cleanup();
  });

  it('an unknown --profile is exit 2 naming the known ones; nothing is sent', async () => {
    const cfg = tempDir();
    await run(['auth', 'login', '--key-stdin', '--base-url', s.sb.baseUrl, '--profile', 'staging'], {
      configDir: cfg.dir,
      stdin: key(),
    });
    const before = (await s.requests()).length;
    const r = await run(['tests', 'list', '--profile', 'stagin'], { configDir: cfg.dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--profile: no profile 'stagin' \(known: staging\)/);
    expect((await s.requests()).length).toBe(before);
    cfg.cleanup();
  });

  it('an unknown profile from ASSESS_PROFILE names the variable, not --profile', async () => {
    const cfg = tempDir();
    await run(['auth', 'login', '--key-stdin', '--base-url', s.sb.baseUrl, '--profile', 'staging'], {
      configDir: cfg.dir,
      stdin: key(),
    });
    const r = await run(['tests', 'list'], { configDir: cfg.dir, env: { ASSESS_PROFILE: 'stagin' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^error: ASSESS_PROFILE: no profile 'stagin' \(known: staging\)\n.*or unset ASSESS_PROFILE to use 'default'$/m,
    );
    expect(r.stderr).not.toMatch(/--profile:/);
    cfg.cleanup();
  });

  it('the missing-key hint carries the --profile in use', async () => {
    const cfg = tempDir();
    await run(['config', 'set', 'base-url', s.sb.baseUrl, '--profile', 'ci'], { configDir: cfg.dir });
    const r = await run(['tests', 'list', '--profile', 'ci'], { configDir: cfg.dir });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/assess auth login --profile ci/);
    cfg.cleanup();
  });
});

describe('help', () => {
  it('assess help attempts list shows the verb help (as attempts list --help does)', async () => {
    const a = await run(['help', 'attempts', 'list']);
    const b = await run(['attempts', 'list', '--help']);
    expect(a.code).toBe(0);
    expect(a.stdout).toMatch(/^Usage: assess attempts list/);
    expect(a.stdout).toBe(b.stdout);
  });
});
