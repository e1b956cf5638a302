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
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
// pdfkit reads its font files next to its own code; fastify (the sandbox) is large and loaded
// only by `sandbox serve` / --sandbox, so bundling it would buy nothing.
const EXTERNAL = ['pdfkit', 'fastify'];
// The largest packages every command loads are bundled apart, as CommonJS, into dist/vendor/ and
// loaded through src/vendor/code-cache.ts (V8's code cache); our code imports them through the
// stand-ins in src/vendor/ (the alias below is the build's only: tests and tsc see the packages).
const CACHED = ['zod', 'commander', 'undici'];
const viaCodeCache = {
  name: 'via-code-cache',
  setup(b) {
    b.onResolve({ filter: new RegExp(`^(${CACHED.join('|')})$`) }, (a) => ({ path: new URL(`../src/vendor/${a.path}.ts`, import.meta.url).pathname }));
  },
};
const out = `dist.build-${process.pid}`;
rmSync(out, { recursive: true, force: true });
try {
  for (const name of CACHED)
    await build({
      stdin: { contents: `module.exports = require(${JSON.stringify(name)});`, resolveDir: '.', loader: 'js' },
      outfile: `${out}/vendor/${name}.cjs`,
      bundle: true,
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      logLevel: 'warning',
    });
  const buildId = createHash('sha256')
    .update(CACHED.map((n) => readFileSync(`${out}/vendor/${n}.cjs`)).join('\0'))
    .digest('hex')
    .slice(0, 12);
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
    define: { __ASSESS_VERSION__: JSON.stringify(pkg.version), __ASSESS_BUILD_ID__: JSON.stringify(buildId) },
    plugins: [viaCodeCache],
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
