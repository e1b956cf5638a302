// Builds dist/ with esbuild:
//   dist/main.cjs   the entry (CommonJS: Node starts it ~10 ms sooner than an ES module):
//                   answers --help/--version from dist/help.json, else loads the program
//                   through src/cli/load-cli.ts;
//   dist/cli.cjs    the program: src/cli/program.ts and its npm packages in one CommonJS bundle
//                   (one file read instead of hundreds of modules resolved: zod alone is ~230),
//                   except those that read their own data files or only the sandbox loads
//                   (EXTERNAL). Written as the body of a module wrapper, whitespace-minified and
//                   ASCII-only, so that it can be compiled with V8's code cache;
//   dist/cli-<family>.cjs  the same program for one family of nouns (src/cli/programs.ts): the
//                   other nouns and the embedded sandbox left out, about half the size, each with
//                   a cache of its own warmed by that family's commands; dist/main.cjs picks one
//                   when the command line starts with one of its nouns and has no --sandbox;
//   dist/undici.cjs  undici, the HTTP client, as a bundle of its own in the same form: half of the
//                   code, which only a command that sends a request reads (src/api/undici.ts);
//   dist/cli.cjs.cache, dist/undici.cjs.cache  their code caches, written by a process that ran a
//                   few commands against a sandbox (WARM_UP), so that they hold the bytecode those
//                   commands need; dist/cli-<family>.cjs.cache, by a process that ran the family's
//                   warm-up (PROGRAMS in src/cli/programs.ts);
//   dist/help.json  every command's --help text, so `assess --help` and `assess <cmd> --help`
//                   start without loading the program.
//   dist/completion.json  `assess completion bash|zsh|fish`, for the same reason (a shell runs it
//                   at every start).
//
// It builds into a fresh folder and swaps it in with renames, so a test run using dist/
// never sees a half-written build.
import { build, transform } from 'esbuild';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// the programs by family, from the one place dist/main.cjs reads them too
const { PROGRAMS, SHELLS } = await import(
  `data:text/javascript,${encodeURIComponent((await transform(readFileSync('src/cli/programs.ts', 'utf8'), { loader: 'ts', format: 'esm' })).code)}`
);
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
// pdfkit reads its font files next to its own code; fastify (the sandbox) is large and loaded
// only by `sandbox serve` / --sandbox; conf (with ajv) and @inquirer/prompts only to write the
// config or to ask (~1 MB of source every command would read): src/util/import-package.ts.
const EXTERNAL = ['pdfkit', 'fastify', 'conf', '@inquirer/prompts', 'undici'];
// What the whole program's code cache (and undici's) is made from: the commonest request paths and
// a usage error. The families' warm-ups are in src/cli/programs.ts.
const WARM_UP = [
  ['tests', 'list'],
  ['tests', 'get', '1001', '--json'],
  ['report', '900001', '--json'],
  ['links', 'list', '1001', '--json'],
  ['attempts', 'list', '1001', '--json'],
  ['invite', '1001', '--email', 'warm-up@example.com', '--name', 'Warm Up', '--json'],
  ['config', 'list'],
  ['tests', 'get', 'abc'],
];
const WHOLE_PROGRAM = { file: 'cli.cjs' };
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  logLevel: 'warning',
  define: { __ASSESS_VERSION__: JSON.stringify(pkg.version) },
};
// main.cjs loads the program from cli.cjs; its fallback import of src/cli/program.ts (a run from
// src/ with tsx) must not pull the program into main.cjs.
const programStaysOut = {
  name: 'program-stays-out',
  setup: (b) => b.onResolve({ filter: /\/cli\/program\.js$/ }, (args) => ({ path: args.path, external: true })),
};

// commander requires node:child_process when it loads, for executable subcommands, which assess
// does not have: loading it (and dgram, net) is ~2.7 ms of every start-up. commander gets an
// object that requires it on first use instead (it only ever calls spawn).
const commanderChildProcessOnUse = {
  name: 'commander-child-process-on-use',
  setup(b) {
    b.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      /[\\/]node_modules[\\/]commander[\\/]/.test(args.importer) ? { path: 'child_process', namespace: 'on-use' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'on-use' }, () => ({
      contents: "module.exports = new Proxy({}, { get: (_, key) => require('node:child_process')[key] });",
      loader: 'js',
    }));
  },
};

// chalk detects colour support when it loads (node:tty, and with it node:net: ~4 ms of a start-up
// whose output is not a terminal) for its default instances. assess decides colour itself
// (src/cli/globals.ts decideColor) and only uses `new Chalk({ level })`: chalk gets an answer
// of "no colour" for the default instances it never uses.
const chalkWithoutDetection = {
  name: 'chalk-without-detection',
  setup(b) {
    b.onResolve({ filter: /^#supports-color$/ }, (args) =>
      /[\\/]node_modules[\\/]chalk[\\/]/.test(args.importer) ? { path: 'supports-color', namespace: 'no-detection' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'no-detection' }, () => ({ contents: 'export default { stdout: false, stderr: false };', loader: 'js' }));
  },
};

// A family's program leaves out the other nouns and the embedded sandbox: their modules become
// one that throws, should dist/main.cjs ever pick the program for a line that needs them.
const onlyNouns = (file, nouns) => ({
  name: 'only-nouns',
  setup(b) {
    const leftOut = (path) => ({ path, namespace: 'left-out' });
    b.onResolve({ filter: /^\.\/[a-z]+\/index\.js$/ }, (args) => {
      const noun = /^\.\/([a-z]+)\//.exec(args.path)[1];
      return /[\\/]src[\\/]commands[\\/]index\.ts$/.test(args.importer) && !nouns.includes(noun) ? leftOut(`commands/${noun}`) : undefined;
    });
    b.onResolve({ filter: /^\.\.\/sandbox\/index\.js$/ }, (args) => (/[\\/]src[\\/]cli[\\/]/.test(args.importer) ? leftOut('sandbox') : undefined));
    b.onLoad({ filter: /.*/, namespace: 'left-out' }, (args) => ({
      contents: `throw new Error(${JSON.stringify(`${args.path} is not in dist/${file}: dist/main.cjs should have loaded dist/cli.cjs for this command line`)});`,
      loader: 'js',
    }));
  },
});

const out = `dist.build-${process.pid}`;
rmSync(out, { recursive: true, force: true });
// the build id line lets src/cli/load-cli.ts tell this build's code caches from another's
const scriptForm = {
  format: 'cjs',
  minifyWhitespace: true,
  legalComments: 'external', // the packages' licence notes go to <bundle>.LEGAL.txt
  banner: { js: `/*assess-build:${randomUUID()}*/(function (exports, require, module, __filename, __dirname) {` },
  footer: { js: '})' },
};
try {
  await build({
    ...common,
    entryPoints: ['src/main.ts'],
    outdir: out,
    outExtension: { '.js': '.cjs' },
    format: 'cjs',
    plugins: [programStaysOut],
    logOverride: { 'empty-import-meta': 'silent' }, // src/main.ts uses __dirname when it has one
  });
  // the whole program, then each family's; these without source maps (a map each would double the
  // package; their code is the whole program's, which keeps its map)
  for (const { file, nouns } of [WHOLE_PROGRAM, ...PROGRAMS]) {
    await build({
      ...common,
      entryPoints: { [file.replace(/\.cjs$/, '')]: 'src/cli/program.ts' },
      outdir: out,
      outExtension: { '.js': '.cjs' },
      ...scriptForm,
      ...(nouns ? { sourcemap: false } : {}),
      external: EXTERNAL,
      plugins: [...(nouns ? [onlyNouns(file, nouns)] : []), commanderChildProcessOnUse, chalkWithoutDetection],
      logOverride: { 'empty-import-meta': 'silent' }, // src/version.ts: only without __ASSESS_VERSION__
    });
  }
  await build({
    ...common,
    entryPoints: { undici: 'node_modules/undici/index.js' },
    outdir: out,
    outExtension: { '.js': '.cjs' },
    ...scriptForm,
  });
  const programs = [WHOLE_PROGRAM, ...PROGRAMS].map((p) => p.file);
  for (const bundle of [...programs, 'undici.cjs']) {
    assertAscii(`${out}/${bundle}`);
    assertNoImport(`${out}/${bundle}`);
  }
  for (const program of programs) assertUndiciThroughItsDoor(`${out}/${program}`);
  const help = execFileSync(process.execPath, [`${out}/main.cjs`], {
    env: { ...process.env, ASSESS_DUMP_HELP: '1', NO_COLOR: '1' },
    encoding: 'utf8',
  });
  writeFileSync(`${out}/help.json`, help);
  // `completion <shell>` is generated from the whole program (the program answers: there is no
  // snapshot in out/ yet) and kept for main.cjs, which serves it without loading a program
  const completion = Object.fromEntries(
    SHELLS.map((shell) => [
      shell,
      execFileSync(process.execPath, [`${out}/main.cjs`, 'completion', shell], {
        env: { ...process.env, NO_COLOR: '1', ASSESS_CACHE_DIR: '' },
        encoding: 'utf8',
      }),
    ]),
  );
  writeFileSync(`${out}/completion.json`, JSON.stringify(completion));
  const old = `dist.old-${process.pid}`;
  if (existsSync('dist')) renameSync('dist', old);
  renameSync(out, 'dist');
  rmSync(old, { recursive: true, force: true });
  // in place: the cache keeps the file name its code was compiled under (stack traces show it)
  await writeCodeCache('dist/main.cjs');
  const kib = (f) => Math.round(readFileSync(`dist/${f}`).length / 1024);
  console.log(
    `built dist/ (assess ${pkg.version}, ${Object.keys(JSON.parse(help)).length} help pages, cli.cjs ${kib('cli.cjs')} KiB + code cache ${kib('cli.cjs.cache')} KiB, ${PROGRAMS.length} family programs ${PROGRAMS.map((p) => `${kib(p.file)}+${kib(`${p.file}.cache`)}`).join(' ')} KiB, undici.cjs ${kib('undici.cjs')} KiB + code cache ${kib('undici.cjs.cache')} KiB)`,
  );
} finally {
  rmSync(out, { recursive: true, force: true });
}

/** The loader reads cli.cjs as latin1 (no UTF-8 decoding): a non-ASCII byte would change the program. */
function assertAscii(file) {
  const bytes = readFileSync(file);
  const at = bytes.findIndex((b) => b > 0x7f);
  if (at < 0) return;
  const context = bytes.subarray(Math.max(0, at - 60), at + 20).toString('utf8');
  throw new Error(
    `${file} has a non-ASCII byte at ${at}: …${context}…\n  esbuild escapes strings but not regular expressions: write the character as \\uXXXX in src/`,
  );
}

/** import() fails in code compiled with a code cache: packages come through src/util/import-package.ts. */
function assertNoImport(file) {
  const found = readFileSync(file, 'latin1').match(/.{0,60}\bimport\((?!specifier\)).{0,30}/);
  if (found)
    throw new Error(
      `${file} calls import(), which fails under the code cache: …${found[0]}…\n  use a static import, or src/util/import-package.ts for an npm package`,
    );
}

/**
 * undici is external to cli.cjs so that it comes from dist/undici.cjs: a require of it in cli.cjs
 * (a static import somewhere) would load the package's hundred files, uncached, on every start.
 */
function assertUndiciThroughItsDoor(file) {
  const found = readFileSync(file, 'latin1').match(/.{0,60}require\("undici"\).{0,30}/);
  if (found) throw new Error(`${file} requires undici: …${found[0]}…\n  load it through src/api/undici.ts (loadUndici), or import only its types`);
}

function withoutKey(env) {
  const copy = { ...env };
  for (const k of ['ASSESS_API_KEY', 'ASSESS_BASE_URL', 'ASSESS_BASE_URL_V2']) delete copy[k];
  return copy;
}

/** Runs WARM_UP, then each family's warm-up, against a sandbox of this build: one process each, which writes its program's cache. */
async function writeCodeCache(main) {
  const home = mkdtempSync(join(tmpdir(), 'assess-build-'));
  const env = { ...process.env, ASSESS_CONFIG_DIR: home, CI: 'true', NO_COLOR: '1' };
  delete env.ASSESS_PROFILE;
  delete env.NODE_OPTIONS; // the cache is for plain `node`: its stamp names the flags it was made under
  for (const k of Object.keys(env)) if (/^(https?|all|no)_proxy$/i.test(k)) delete env[k]; // the sandbox is on loopback
  const sandbox = spawn(process.execPath, [main, 'sandbox', 'serve', '--port', '0', '--json'], { env, stdio: ['ignore', 'pipe', 'ignore'] });
  try {
    const info = await new Promise((resolve, reject) => {
      let text = '';
      sandbox.stdout.setEncoding('utf8').on('data', (chunk) => {
        text += chunk;
        if (text.includes('\n')) resolve(JSON.parse(text.slice(0, text.indexOf('\n'))));
      });
      sandbox.once('error', reject);
      sandbox.once('exit', (code) => reject(new Error(`the sandbox for the code cache exited (${code})`)));
      setTimeout(() => reject(new Error('the sandbox for the code cache did not start within 60 s')), 60_000).unref();
    });
    const warm = (lines, warmEnv) =>
      execFileSync(process.execPath, [main], {
        env: { ...warmEnv, ASSESS_WARM_CODE_CACHE: JSON.stringify(lines) },
        stdio: ['ignore', 'ignore', 'pipe'],
        timeout: 120_000,
      });
    const keyed = { ...env, ASSESS_BASE_URL: info.baseUrl, ASSESS_API_KEY: info.keys[0] };
    warm(WARM_UP, keyed);
    // each family's program, by that family's commands alone
    for (const { file, warmUp, withKey } of PROGRAMS) warm(warmUp, { ...(withKey ? keyed : withoutKey(env)), ASSESS_WARM_PROGRAM: file });
  } finally {
    sandbox.kill('SIGINT');
    rmSync(home, { recursive: true, force: true });
  }
}
