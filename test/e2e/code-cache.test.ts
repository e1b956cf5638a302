// The built binary starts from the build's code cache; under other V8 flags (another Node is the
// same case) it compiles, keeps a private cache of its own in the user's cache folder, and starts
// from that the next time (src/cli/load-cli.ts). undici is a bundle of its own, loaded (with its
// cache) only by a command that sends a request.
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runAssess, tempDir } from '../helpers/cli.js';
import { startTestSandbox } from '../helpers/sandbox.js';
import { PROGRAMS } from '../../src/cli/programs.js';
import { spawnAssess } from '../helpers/spawn.js';

const cacheHome = tempDir('assess-xdg-cache-');
afterAll(() => cacheHome.cleanup());
const env = { ASSESS_DEBUG: '1', XDG_CACHE_HOME: cacheHome.dir };

describe('code cache', () => {
  it('the build’s cache is used as built', async () => {
    const r = await runAssess(['completion', 'bash', '--no-color'], { env }); // a script with a flag: the whole program
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^\[debug\] code cache: used \(\d+ bytes, .*dist[\\/]cli\.cjs\.cache\)$/m);
  });

  it.each(PROGRAMS.flatMap((p) => p.nouns.map((noun) => [noun, p.file] as const)))(
    '%s runs its family’s program (%s) from its own cache',
    async (noun, file) => {
      // an unknown verb or a bad argument: a usage error, which needs only the noun's definitions
      const r = await runAssess([noun, 'no-such-thing'], { env: { ...env, ASSESS_API_KEY: '' } });
      expect(r.stderr).toContain(`code cache: used (`);
      expect(r.stderr).toContain(`${file}.cache)`);
      expect(r.stderr).not.toMatch(/is not in dist/);
    },
  );

  it('--sandbox, or a global option before the noun, runs the whole program', async () => {
    for (const args of [
      ['config', 'list', '--sandbox'],
      ['--profile', 'default', 'config', 'list'],
    ]) {
      const r = await runAssess(args, { env });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/^\[debug\] code cache: used \(\d+ bytes, .*dist[\\/]cli\.cjs\.cache\)$/m);
    }
  });

  it('under other V8 flags: compiles, saves a private cache, and uses it the next time', async () => {
    const other = { ...env, NODE_OPTIONS: '--stack-trace-limit=20' };
    const first = await runAssess(['config', 'list'], { env: other });
    expect(first.code).toBe(0);
    expect(first.stderr).toMatch(/^\[debug\] code cache: other-node$/m);
    expect(first.stderr).toMatch(/^\[debug\] code cache: saved .*assess[\\/]code-.*\.cache for the next run$/m);
    const dir = join(cacheHome.dir, 'assess');
    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    expect(statSync(join(dir, files[0])).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);

    const second = await runAssess(['config', 'list'], { env: other });
    expect(second.code).toBe(0);
    expect(second.stderr).toContain(`[debug] code cache: used (`);
    expect(second.stderr).toContain(files[0]);
    expect(second.stdout).toBe(first.stdout);
  });

  // a request sets V8's flags for the work (src/util/v8-flags.ts: --liftoff-only, --max-opt=1 …);
  // the run sets V8's defaults back before it writes its caches, or the next run would refuse them
  it('under other V8 flags, a command that sent a request saves caches the next run takes', async () => {
    const home = tempDir('assess-xdg-cache-');
    const sb = await startTestSandbox();
    try {
      const other = { ...env, ...sb.env, XDG_CACHE_HOME: home.dir, NODE_OPTIONS: '--stack-trace-limit=23' };
      const first = await runAssess(['tests', 'get', '1001', '--json'], { env: other });
      expect(first.code, first.stderr).toBe(0);
      expect(first.stderr).toMatch(/code cache: saved .*cli-tests\.cjs\.cache/);
      expect(first.stderr).toMatch(/code cache: saved .*undici\.cjs\.cache/);
      const second = await runAssess(['tests', 'get', '1001', '--json'], { env: other });
      expect(second.code, second.stderr).toBe(0);
      expect(second.stderr).toMatch(/^\[debug\] code cache: used \(.*cli-tests\.cjs\.cache\)$/m);
      expect(second.stderr).toMatch(/^\[debug\] code cache of undici\.cjs: used \(/m);
      expect(second.stdout).toBe(first.stdout);
    } finally {
      await sb.close();
      home.cleanup();
    }
  });

  // a bulk invite sets the flags for its check, then loads undici: under V8's defaults again
  // (underDefaultFlags), or undici's cache would be refused and undici compiled from source
  it('a real bulk invite, which sets the run flags before it loads undici, takes undici’s cache', async () => {
    const sb = await startTestSandbox();
    const dir = tempDir('assess-bulk-cache-');
    try {
      const csv = join(dir.dir, 'people.csv');
      writeFileSync(csv, 'email,name\nann@example.com,Ann Lee\nbob@example.com,Bob Roe\n');
      const r = await runAssess(['invite', '1001', '--from-csv', csv], { env: { ...env, ...sb.env } });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/^\[debug\] code cache: used \(.*cli-invite\.cjs\.cache\)$/m);
      expect(r.stderr).toMatch(/^\[debug\] code cache of undici\.cjs: used \(/m);
    } finally {
      await sb.close();
      dir.cleanup();
    }
  });

  it('a server (sandbox serve) starts from the same cache: the optimising compiler comes back only after', async () => {
    const sb = spawnAssess(['sandbox', 'serve', '--port', '0', '--json'], { env });
    JSON.parse(await sb.firstLine());
    await sb.stop();
    expect(sb.stderr()).toMatch(/^\[debug\] code cache: used \(\d+ bytes, .*dist[\\/]cli-sandbox\.cjs\.cache\)$/m);
  });

  it('a server under other V8 flags saves no private cache (V8 would stamp it with the changed flag)', async () => {
    const home = tempDir('assess-xdg-cache-');
    try {
      const sb = spawnAssess(['sandbox', 'serve', '--port', '0', '--json'], {
        env: { ...env, XDG_CACHE_HOME: home.dir, NODE_OPTIONS: '--stack-trace-limit=22' },
      });
      JSON.parse(await sb.firstLine());
      await sb.stop();
      expect(sb.stderr()).toMatch(/code cache: other-node/);
      expect(sb.stderr()).not.toMatch(/code cache: saved/);
      expect(readdirSync(home.dir)).toEqual([]);
    } finally {
      home.cleanup();
    }
  });

  it('a dry run lifts the optimiser for its check and restores the flags: the cache it saves is taken next time', async () => {
    const home = tempDir('assess-xdg-cache-');
    try {
      const csv = join(home.dir, 'people.csv');
      writeFileSync(csv, 'email,name\nann@example.com,Ann Lee\nbob@example.com,Bob Roe\n');
      const other = {
        ...env,
        XDG_CACHE_HOME: home.dir,
        NODE_OPTIONS: '--stack-trace-limit=24',
        ASSESS_API_KEY: 'sk_test_dry_run_1234567890',
        ASSESS_BASE_URL: 'http://127.0.0.1:9',
      };
      const first = await runAssess(['invite', '1001', '--from-csv', csv, '--dry-run'], { env: other });
      expect(first.code, first.stderr).toBe(0);
      expect(first.stderr).toMatch(/code cache: saved .*cli-invite\.cjs\.cache/);
      const second = await runAssess(['invite', '1001', '--from-csv', csv, '--dry-run'], { env: other });
      expect(second.stderr).toMatch(/^\[debug\] code cache: used \(/m);
      expect(second.stdout).toBe(first.stdout);
    } finally {
      home.cleanup();
    }
  });

  it('ASSESS_CACHE_DIR= keeps nothing', async () => {
    const r = await runAssess(['config', 'list'], { env: { ...env, NODE_OPTIONS: '--stack-trace-limit=21', ASSESS_CACHE_DIR: '' } });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/code cache: other-node/);
    expect(r.stderr).not.toMatch(/saved/);
  });
});
