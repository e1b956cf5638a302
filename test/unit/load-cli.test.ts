// The program is compiled through vm.Script with V8's code cache (src/cli/load-cli.ts): a cache
// V8 refuses, or none at all, must give the same program, only compiled anew.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cacheFileOf, loadCli, writeCodeCache } from '../../src/cli/load-cli.js';
import { tempDir } from '../helpers/cli.js';

const work = tempDir('assess-load-cli-');
afterAll(() => work.cleanup());

// a bundle as the build writes it: the body of a CommonJS module wrapper
function bundle(name: string): string {
  const file = join(work.dir, name);
  writeFileSync(
    file,
    "(function (exports, require, module, __filename, __dirname) {\nexports.runCli = async (argv) => 40 + argv.length + require('node:path').basename(__filename).length;\n})",
  );
  return file;
}

const run = (file: string) => (loadCli(file)!.program as unknown as { runCli: (a: string[]) => Promise<number> }).runCli(['a', 'b']);

describe('loadCli', () => {
  it('is undefined without a bundle (a run from src/)', () => {
    expect(loadCli(join(work.dir, 'missing.cjs'))).toBeUndefined();
  });

  it('compiles without a cache, and then uses the cache it wrote', async () => {
    const file = bundle('one.cjs');
    const first = loadCli(file)!;
    expect(first.cacheRejected).toBeUndefined();
    expect(await run(file)).toBe(40 + 2 + 'one.cjs'.length);
    expect(writeCodeCache(first, file)).toBeGreaterThan(0);
    const second = loadCli(file)!;
    expect(second.cacheRejected).toBe(false);
    expect(second.cacheBytes).toBeGreaterThan(0);
  });

  it('a cache V8 refuses (corrupt, or of another build) is ignored: the program still runs', async () => {
    const file = bundle('two.cjs');
    writeFileSync(cacheFileOf(file), Buffer.from('not a code cache at all, just bytes'));
    const loaded = loadCli(file)!;
    expect(loaded.cacheRejected).toBe(true);
    expect(await run(file)).toBe(40 + 2 + 'two.cjs'.length);
  });
});
