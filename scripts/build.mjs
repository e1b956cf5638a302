// Bundles src/ into dist/ with esbuild, npm packages included (one file read and compiled
// instead of hundreds resolved one by one: zod alone is ~230 modules), except those that read
// their own data files or are only loaded by the sandbox (EXTERNAL), then snapshots every command's
// --help text into dist/help.json so `assess --help` and `assess <cmd> --help` start
// without loading commander, zod or any command module.
//
// It builds into a fresh folder and swaps it in with renames, so a test run using dist/
// never sees a half-written build.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
// pdfkit reads its font files next to its own code; fastify (the sandbox) is large and loaded
// only by `sandbox serve` / --sandbox, so bundling it would buy nothing.
const EXTERNAL = ['pdfkit', 'fastify'];
const out = `dist.build-${process.pid}`;
rmSync(out, { recursive: true, force: true });
try {
  await build({
    entryPoints: ['src/main.ts', 'src/cli/program.ts', 'src/sandbox/index.ts'],
    outdir: out,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: EXTERNAL,
    // bundled CommonJS packages (undici, commander…) call require() for node's own modules
    banner: { js: "import { createRequire as __assessRequire } from 'node:module'; const require = __assessRequire(import.meta.url);" },
    sourcemap: 'linked',
    define: { __ASSESS_VERSION__: JSON.stringify(pkg.version) },
    logLevel: 'warning',
  });
  const help = execFileSync(process.execPath, [`${out}/main.js`], {
    env: { ...process.env, ASSESS_DUMP_HELP: '1', NO_COLOR: '1' },
    encoding: 'utf8',
  });
  writeFileSync(`${out}/help.json`, help);
  const old = `dist.old-${process.pid}`;
  if (existsSync('dist')) renameSync('dist', old);
  renameSync(out, 'dist');
  rmSync(old, { recursive: true, force: true });
  console.log(`built dist/ (assess ${pkg.version}, ${Object.keys(JSON.parse(help)).length} help pages)`);
} finally {
  rmSync(out, { recursive: true, force: true });
}
