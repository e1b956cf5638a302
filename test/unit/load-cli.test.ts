// The program is compiled through vm.Script with V8's code cache (src/cli/load-cli.ts): a cache of
// another build, one for another Node, one V8 refuses, or none at all must give the same program,
// compiled anew; a run under another Node keeps a private cache of its own for the next run.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cacheFileOf, loadCli, saveUserCodeCache, userCacheFileOf, writeCodeCache } from '../../src/cli/load-cli.js';
import { tempDir } from '../helpers/cli.js';

const work = tempDir('assess-load-cli-');
afterAll(() => work.cleanup());

// a bundle as the build writes it: its build id, then the body of a CommonJS module wrapper
function bundle(name: string, id: string, answer: number): string {
  const file = join(work.dir, name);
  writeFileSync(
    file,
    `/*assess-build:${id}*/(function (exports, require, module, __filename, __dirname) {\n` +
      `exports.runCli = async (argv) => ${answer} + argv.length + require('node:path').basename(__filename).length;\n})`,
  );
  return file;
}

const run = (file: string, fingerprint = 'node-a') =>
  (loadCli(file, { fingerprint })!.program as unknown as { runCli: (a: string[]) => Promise<number> }).runCli(['a', 'b']);

describe('loadCli', () => {
  it('is undefined without a bundle (a run from src/)', () => {
    expect(loadCli(join(work.dir, 'missing.cjs'))).toBeUndefined();
  });

  it('compiles without a cache, and then uses the cache the build wrote', async () => {
    const file = bundle('one.cjs', 'build-1', 40);
    const first = loadCli(file, { fingerprint: 'node-a' })!;
    expect(first.cache).toBe('none');
    expect(first.buildId).toBe('build-1');
    expect(await run(file)).toBe(40 + 2 + 'one.cjs'.length);
    expect(writeCodeCache(first)).toBeGreaterThan(0);
    expect(readFileSync(cacheFileOf(file), 'latin1').startsWith('build-1 ')).toBe(true);
    const second = loadCli(file, { fingerprint: 'node-a' })!;
    expect(second.cache).toBe('used');
    expect(second.cacheFile).toBe(cacheFileOf(file));
    expect(second.cacheBytes).toBeGreaterThan(0);
  });

  it("another build's cache is not handed to V8, even when the sources have the same length", async () => {
    const file = bundle('two.cjs', 'build-2', 50);
    writeCodeCache(loadCli(file, { fingerprint: 'node-a' })!);
    const stale = readFileSync(cacheFileOf(file));
    bundle('two.cjs', 'build-3', 60); // same length, other program
    writeFileSync(cacheFileOf(file), stale);
    expect(loadCli(file, { fingerprint: 'node-a' })!.cache).toBe('stale');
    expect(await run(file)).toBe(60 + 2 + 'two.cjs'.length);
  });

  it('a cache V8 refuses (corrupt) is ignored: the program still runs', async () => {
    const file = bundle('three.cjs', 'build-4', 70);
    // the stamp of build-4 for node-a, taken from another file: V8 keeps every script this
    // process compiled and would answer from that, never looking at the cache
    const head = loadCli(bundle('three-probe.cjs', 'build-4', 71), { fingerprint: 'node-a' })!.stamp;
    writeFileSync(cacheFileOf(file), Buffer.from(`${head}\nnot a code cache at all, just bytes`, 'latin1'));
    expect(loadCli(file, { fingerprint: 'node-a' })!.cache).toBe('rejected');
    expect(await run(file)).toBe(70 + 2 + 'three.cjs'.length);
  });

  it('under another Node: compiles, keeps a private cache in the user folder, and uses it next time', async () => {
    const file = bundle('four.cjs', 'build-5', 80);
    writeCodeCache(loadCli(file, { fingerprint: 'node-a' })!);
    const dir = join(work.dir, 'user-cache');
    mkdirSync(dir);
    writeFileSync(join(dir, 'code-old-build-0000.cache'), 'an earlier build');
    const userCacheDir = () => dir;

    const first = loadCli(file, { fingerprint: 'node-b', userCacheDir })!;
    expect(first.cache).toBe('other-node');
    const saved = (await saveUserCodeCache(first, userCacheDir))!;
    expect(saved).toBe(userCacheFileOf(dir, first.stamp, file));
    expect(statSync(saved).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual([saved.slice(dir.length + 1)]); // the earlier build's is gone

    const second = loadCli(file, { fingerprint: 'node-b', userCacheDir })!;
    expect(second.cache).toBe('used');
    expect(second.cacheFile).toBe(saved);
    expect(await saveUserCodeCache(second, userCacheDir)).toBeUndefined(); // nothing to save when a cache was used
    expect(await run(file, 'node-b')).toBe(80 + 2 + 'four.cjs'.length);
    // the build's own Node still takes the build's cache
    expect(loadCli(file, { fingerprint: 'node-a', userCacheDir })!.cacheFile).toBe(cacheFileOf(file));
  });

  it('writes no user cache without a build cache (a build in progress), nor when turned off', async () => {
    const file = bundle('five.cjs', 'build-6', 90);
    const dir = join(work.dir, 'no-cache');
    expect(await saveUserCodeCache(loadCli(file, { fingerprint: 'node-b' })!, () => dir)).toBeUndefined();
    writeCodeCache(loadCli(file, { fingerprint: 'node-a' })!);
    expect(await saveUserCodeCache(loadCli(file, { fingerprint: 'node-b' })!, () => undefined)).toBeUndefined();
    expect(existsSync(dir)).toBe(false);
  });
});
