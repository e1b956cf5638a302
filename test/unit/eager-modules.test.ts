// The build step that compiles at load the module bodies every command runs
// (scripts/eager-modules.mjs): only esbuild's wrappers of the entry's static imports change, the
// program does the same, and the source map still points at the same code.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decode } from '@jridgewell/sourcemap-codec';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a build script, plain JavaScript without types
import { eagerModules, staticClosure } from '../../scripts/eager-modules.mjs';

const dir = mkdtempSync(join(tmpdir(), 'assess-eager-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// `shared` is imported by the entry and by a lazily imported verb: esbuild wraps it in __esm
writeFileSync(
  join(dir, 'entry.ts'),
  "import { shared } from './shared';\nconsole.log(shared('entry'));\nvoid import('./verb').then((m) => console.log(m.verb()));\n",
);
writeFileSync(join(dir, 'shared.ts'), 'export const shared = (who: string) => `shared for ${who}`;\n');
writeFileSync(join(dir, 'verb.ts'), "import { shared } from './shared';\nexport const verb = () => shared('verb');\n");

async function bundle() {
  const r = await build({
    entryPoints: [join(dir, 'entry.ts')],
    outdir: join(dir, 'out'),
    absWorkingDir: dir,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    write: false,
    metafile: true,
    sourcemap: 'external',
    minifyWhitespace: true,
    supported: { 'dynamic-import': false },
    logLevel: 'silent',
  });
  const file = (ext: string) => r.outputFiles.find((f) => f.path.endsWith(ext))!.text;
  return { code: file('.js'), map: file('.js.map'), metafile: r.metafile };
}

describe('eagerModules', () => {
  it('the entry static closure holds the entry and what it imports, not what import() reaches', async () => {
    const { metafile } = await bundle();
    expect([...(staticClosure(metafile, 'entry.ts') as Set<string>)].sort()).toEqual(['entry.ts', 'shared.ts']);
  });

  it('turns only those wrappers into parenthesized functions; the program prints the same', async () => {
    const { code, map, metafile } = await bundle();
    expect(code).toMatch(/"shared\.ts"\(\)\{/);
    const eager = eagerModules(code, map, staticClosure(metafile, 'entry.ts')) as {
      code: string;
      map: string;
      wrapped: number;
    };
    expect(eager.wrapped).toBe(1);
    expect(eager.code).toMatch(/"shared\.ts":\(function\(\)\{/);
    expect(eager.code).toMatch(/"verb\.ts"\(\)\{/);
    const run = (js: string) => {
      writeFileSync(join(dir, 'run.cjs'), js);
      return execFileSync(process.execPath, [join(dir, 'run.cjs')], { encoding: 'utf8' });
    };
    expect(run(eager.code)).toBe(run(code));
    expect(run(eager.code)).toBe('shared for entry\nshared for verb\n');
  });

  it('every mapping of the source map points at the same token as before', async () => {
    const { code, map, metafile } = await bundle();
    const eager = eagerModules(code, map, staticClosure(metafile, 'entry.ts')) as { code: string; map: string };
    const before = decode(JSON.parse(map).mappings);
    const after = decode(JSON.parse(eager.map).mappings);
    const oldLines = code.split('\n');
    const newLines = eager.code.split('\n');
    let moved = 0;
    before.forEach((segs, line) =>
      segs.forEach((seg, i) => {
        const now = after[line]![i]!;
        expect(now.slice(1)).toEqual(seg.slice(1)); // same source position
        expect(newLines[line]![now[0]]).toBe(oldLines[line]![seg[0]]); // the same character
        if (now[0] !== seg[0]) moved++;
      }),
    );
    expect(moved).toBeGreaterThan(0);
  });
});
