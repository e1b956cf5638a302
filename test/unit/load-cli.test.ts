// The program is compiled through vm.Script with V8's code cache (src/cli/load-cli.ts): a cache
// V8 refuses, one of another build, or none at all must give the same program, compiled anew.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cacheFileOf, loadCli, writeCodeCache } from '../../src/cli/load-cli.js';
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

const run = (file: string) => (loadCli(file)!.program as unknown as { runCli: (a: string[]) => Promise<number> }).runCli(['a', 'b']);

describe('loadCli', () => {
  it('is undefined without a bundle (a run from src/)', () => {
    expect(loadCli(join(work.dir, 'missing.cjs'))).toBeUndefined();
  });

  it('compiles without a cache, and then uses the cache it wrote', async () => {
    const file = bundle('one.cjs', 'build-1', 40);
    const first = loadCli(file)!;
    expect(first.cache).toBe('none');
    expect(first.buildId).toBe('build-1');
    expect(await run(file)).toBe(40 + 2 + 'one.cjs'.length);
    expect(writeCodeCache(first, file)).toBeGreaterThan(0);
    expect(readFileSync(cacheFileOf(file), 'latin1').startsWith('build-1\n')).toBe(true);
    const second = loadCli(file)!;
    expect(second.cache).toBe('used');
    expect(second.cacheBytes).toBeGreaterThan(0);
  });

  it("another build's cache is not handed to V8, even when the sources have the same length", async () => {
    const file = bundle('two.cjs', 'build-2', 50);
    writeCodeCache(loadCli(file)!, file);
    const stale = readFileSync(cacheFileOf(file));
    bundle('two.cjs', 'build-3', 60); // same length, other program
    writeFileSync(cacheFileOf(file), stale);
    const loaded = loadCli(file)!;
    expect(loaded.cache).toBe('stale');
    expect(await run(file)).toBe(60 + 2 + 'two.cjs'.length);
  });

  it('a cache V8 refuses (corrupt) is ignored: the program still runs', async () => {
    const file = bundle('three.cjs', 'build-4', 70);
    writeFileSync(cacheFileOf(file), Buffer.from('build-4\nnot a code cache at all, just bytes'));
    const loaded = loadCli(file)!;
    expect(loaded.cache).toBe('rejected');
    expect(await run(file)).toBe(70 + 2 + 'three.cjs'.length);
  });
});
