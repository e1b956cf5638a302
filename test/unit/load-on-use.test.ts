// What a command loads before it runs: the program and its noun, statically (esbuild's view of
// the imports, as the build bundles them). A usage error, `--help` or a command that sends
// nothing stops there, so that part must not build the service's response schemas (zod schemas
// cost ~0.2 ms each before V8 optimises anything) nor load the Node modules only some verbs
// use (node:crypto ~5 ms, fs/promises ~3 ms, readline, child_process): those are imported when a
// command runs.
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { NOUN_NAMES } from '../../src/commands/index.js';
import { ROOT } from '../helpers/cli.js';

const { metafile } = await build({
  absWorkingDir: ROOT,
  entryPoints: ['src/cli/program.ts'],
  bundle: true,
  platform: 'node',
  format: 'esm',
  write: false,
  metafile: true,
  outdir: 'out',
  packages: 'external',
  logLevel: 'silent',
  define: { __ASSESS_VERSION__: '"0.0.0"' },
});

/** Every module `from` imports statically, and the Node modules they import. */
function staticClosure(meta: Metafile, from: string): { files: Set<string>; builtins: Set<string> } {
  const files = new Set<string>();
  const builtins = new Set<string>();
  const todo = [from];
  while (todo.length) {
    const file = todo.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    for (const i of meta.inputs[file]?.imports ?? []) {
      if (i.kind !== 'import-statement') continue;
      if (i.external) builtins.add(i.path.replace(/^node:/, ''));
      else todo.push(i.path);
    }
  }
  return { files, builtins };
}

// zod-free helpers that live beside the schemas, and the e-mail check (its schema is built on use)
const ALLOWED_SCHEMA_FILES = ['src/api/schemas/email.ts', 'src/api/schemas/parse.ts'];
const NOT_AT_LOAD = ['crypto', 'readline', 'child_process', 'stream/promises', 'fs/promises'];

describe('what loading a command loads', () => {
  it('esbuild sees every noun', () => {
    expect(NOUN_NAMES.length).toBeGreaterThan(10);
    for (const noun of NOUN_NAMES) expect(Object.keys(metafile.inputs)).toContain(`src/commands/${noun}/index.ts`);
  });

  it.each(NOUN_NAMES)('%s: no response schema is built, no verb-only Node module is loaded', (noun) => {
    const program = staticClosure(metafile, 'src/cli/program.ts');
    const own = staticClosure(metafile, `src/commands/${noun}/index.ts`);
    const files = [...program.files, ...own.files];
    expect(files.filter((f) => f.startsWith('src/api/schemas/') && !ALLOWED_SCHEMA_FILES.includes(f))).toEqual([]);
    expect([...program.builtins, ...own.builtins].filter((b) => NOT_AT_LOAD.includes(b))).toEqual([]);
  });
});
