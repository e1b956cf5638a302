// V8's code cache for the bundled packages (src/vendor/code-cache.ts): written on the first run
// into a private folder under the config dir, used by later runs, and safe to lose or damage.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAssess, tempDir } from '../helpers/cli.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let s: TestSandbox;
beforeAll(async () => {
  s = await startTestSandbox();
});
afterAll(async () => {
  await s?.close();
});

/** The one entry folder (<config>/cache/v8/<build>-<node>-<arch>) and its files. */
function entries(configDir: string): { dir: string; files: string[] } {
  const root = join(configDir, 'cache', 'v8');
  const dirs = readdirSync(root);
  expect(dirs).toHaveLength(1);
  expect(dirs[0]).toContain(`node${process.version}-${process.arch}`);
  const dir = join(root, dirs[0]);
  return { dir, files: readdirSync(dir).sort() };
}

describe('code cache', () => {
  it('is written on the first run (0700 folder, 0600 files), kept by the next, and the answers do not change', async () => {
    const { dir: config, cleanup } = tempDir();
    try {
      const first = await runAssess(['tests', 'get', '1001', '--json'], { configDir: config, env: s.env });
      expect(first.code).toBe(0);
      const { dir, files } = entries(config);
      expect(files).toEqual(['commander.bin', 'undici.bin', 'zod.bin']);
      expect(statSync(dir).mode & 0o777).toBe(0o700);
      for (const f of files) expect(statSync(join(dir, f)).mode & 0o777, f).toBe(0o600);
      const before = files.map((f) => readFileSync(join(dir, f)));
      const second = await runAssess(['tests', 'get', '1001', '--json'], { configDir: config, env: s.env });
      expect(second).toEqual(first);
      // accepted, so not rewritten (an entry made under other V8 flags would be rejected and rewritten every run)
      expect(files.map((f) => readFileSync(join(dir, f)))).toEqual(before);
    } finally {
      cleanup();
    }
  });

  it('a damaged entry is rejected by V8, the command still works, and the entry is rewritten', async () => {
    const { dir: config, cleanup } = tempDir();
    try {
      const first = await runAssess(['tests', 'get', '1001', '--json'], { configDir: config, env: s.env });
      const { dir } = entries(config);
      writeFileSync(join(dir, 'zod.bin'), Buffer.alloc(4096, 0x5a));
      writeFileSync(join(dir, 'undici.bin'), '');
      const again = await runAssess(['tests', 'get', '1001', '--json'], { configDir: config, env: s.env });
      expect(again).toEqual(first);
      expect(readFileSync(join(dir, 'zod.bin')).equals(Buffer.alloc(4096, 0x5a))).toBe(false);
      expect(statSync(join(dir, 'undici.bin')).size).toBeGreaterThan(0);
    } finally {
      cleanup();
    }
  });

  it('ASSESS_CODE_CACHE=0 writes none', async () => {
    const { dir: config, cleanup } = tempDir();
    try {
      const r = await runAssess(['config', 'list'], { configDir: config, env: { ASSESS_CODE_CACHE: '0' } });
      expect(r.code).toBe(0);
      expect(readdirSync(config)).not.toContain('cache');
    } finally {
      cleanup();
    }
  });
});
