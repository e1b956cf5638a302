// A config directory that cannot be written (a read-only file system, mode 555,
// a HOME that is not writable) is exit 2 naming the place and the way out, for `config set`,
// `auth login` and `--sandbox` — never "this looks like a bug" (exit 1). Commands that only read
// the config still run.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, BIN, ROOT, runAssess, tempDir } from '../helpers/cli.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { mountTmpfs, unmountable, type Tmpfs } from '../helpers/tmpfs.js';

const skip = unmountable();
if (skip) console.warn(`unwritable-config.test.ts skipped: ${skip}`);

const WRITERS: Array<[string, string[], string | undefined]> = [
  ['config set', ['config', 'set', 'base-url', 'https://api.example.com'], undefined],
  [
    'auth login',
    ['auth', 'login', '--key-stdin', '--no-verify', '--base-url', 'https://api.example.com'],
    'sk_live_unwritable_0123456789\n',
  ],
  ['--sandbox', ['--sandbox', 'tests', 'list'], undefined],
];

function expectPlaceAndFix(r: { code: number | null; stderr: string }, place: string, cause: RegExp) {
  expect(r.stderr).not.toMatch(/looks like a bug/);
  expect(r.code).toBe(2);
  expect(r.stderr).toContain(place);
  expect(r.stderr).toMatch(cause);
  expect(r.stderr).toMatch(/ASSESS_CONFIG_DIR/); // what to do
}

describe.skipIf(skip !== null)('an unwritable config directory is exit 2, naming the place and the way out', () => {
  let ro: Tmpfs;
  let s: TestSandbox;
  beforeAll(async () => {
    ro = mountTmpfs('64k');
    mkdirSync(join(ro.dir, 'existing'), { mode: 0o700 });
    ro.readOnly();
    s = await startTestSandbox();
  });
  afterAll(async () => {
    ro?.close();
    await s?.close();
  });

  it.each(WRITERS)('%s on a read-only file system (directory to be made): exit 2', async (_name, args, stdin) => {
    const dir = join(ro.dir, 'assess');
    const r = await runAssess(args, { configDir: dir, stdin });
    expectPlaceAndFix(r, dir, /read-only file system \(EROFS\)/);
  });

  it.each(WRITERS)('%s on a read-only file system (directory there): exit 2', async (_name, args, stdin) => {
    const dir = join(ro.dir, 'existing');
    const r = await runAssess(args, { configDir: dir, stdin });
    expectPlaceAndFix(r, dir, /read-only file system \(EROFS\)/);
  });

  it.each(WRITERS)('%s with HOME not writable (the default config place): exit 2', async (_name, args, stdin) => {
    const r = await runAssess(args, {
      env: { HOME: ro.dir, ASSESS_CONFIG_DIR: undefined, XDG_CONFIG_HOME: undefined },
      stdin,
    });
    expectPlaceAndFix(r, join(ro.dir, '.config'), /read-only file system \(EROFS\)/);
  });

  it('a command that only reads the config runs with HOME not writable', async () => {
    const r = await runAssess(['tests', 'list', '--json', 'testId'], {
      env: { ...s.env, HOME: ro.dir, ASSESS_CONFIG_DIR: undefined, XDG_CONFIG_HOME: undefined },
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  it('report export --out (to be made) on a read-only file system: exit 2 with the real cause, not ENOENT', async () => {
    const out = join(ro.dir, 'exports', 'nightly');
    const r = await runAssess(['report', 'export', '--from', '1d', '--out', out], { env: s.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--out: cannot create ${out} (EROFS): read-only file system`);
  });

  it.each(WRITERS)('%s in a mode 555 directory, as an unprivileged user: exit 2', (_name, args, stdin) => {
    const home = tempDir('assess-555-');
    try {
      chmodSync(home.dir, 0o555);
      const dir = join(home.dir, 'assess');
      const env = { ...baseEnv(dir), HOME: home.dir };
      // root ignores mode bits: run as nobody (setpriv, util-linux)
      const r = spawnSync(
        'setpriv',
        ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, BIN, ...args],
        {
          env,
          cwd: ROOT,
          input: stdin ?? '',
          encoding: 'utf8',
          timeout: 30_000,
        },
      );
      expectPlaceAndFix({ code: r.status, stderr: r.stderr }, dir, /permission denied \(EACCES\)/);
    } finally {
      chmodSync(home.dir, 0o700);
      home.cleanup();
    }
  });
});
