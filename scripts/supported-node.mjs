// Runs a development script (the build, the tests, the demo) on a supported Node: this one when it
// meets package.json's engines, else an official Node 24 from the npm registry — the
// node-<os>-<arch> package, a tarball holding bin/node, no install script — kept outside the
// repository in $XDG_CACHE_HOME/assess/node-24 (~/.cache/assess/node-24; ASSESS_NODE_CACHE moves
// it). Nothing is installed globally, and with a supported Node nothing is fetched. Written for
// Node 18 and newer, so that an old Node can start it.
//   node scripts/supported-node.mjs SCRIPT [ARG…]   SCRIPT (a path) with its arguments
//   node scripts/supported-node.mjs --path MAJOR    prints the path of an official Node MAJOR (.ci/node)
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const FALLBACK_MAJOR = 24;
const root = fileURLToPath(new URL('..', import.meta.url));

/** The oldest Node package.json's engines allows (">=22.13"), as [major, minor]. */
function floor() {
  const range = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines.node;
  const m = /^>=\s*(\d+)(?:\.(\d+))?/.exec(range);
  if (!m) throw new Error(`package.json engines.node is ${range}: this script reads only ">=X.Y"`);
  return [Number(m[1]), Number(m[2] ?? 0)];
}

function supported(version, [major, minor]) {
  const [a, b] = version.split('.').map(Number);
  return a > major || (a === major && b >= minor);
}

function cacheDir() {
  if (process.env.ASSESS_NODE_CACHE) return resolve(process.env.ASSESS_NODE_CACHE);
  const xdg = process.env.XDG_CACHE_HOME;
  return join(xdg && isAbsolute(xdg) ? xdg : join(homedir(), '.cache'), 'assess');
}

/** The npm package of this system's official Node builds. */
function packageName() {
  const os = { linux: 'linux', darwin: 'darwin', win32: 'win' }[process.platform];
  if (!os || !['x64', 'arm64'].includes(process.arch))
    throw new Error(`there is no official Node package for ${process.platform}-${process.arch} in the npm registry`);
  return `node-${os}-${process.arch}`;
}

const exeIn = (dir) => join(dir, 'bin', process.platform === 'win32' ? 'node.exe' : 'node');

/** The version of the Node at `exe`, or undefined when it does not run. */
function versionOf(exe) {
  if (!existsSync(exe)) return undefined;
  const r = spawnSync(exe, ['-p', 'process.versions.node'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

/** npm itself: the one running this script (npm run), else the one on PATH. */
function npm(args, cwd) {
  const cli = process.env.npm_execpath;
  const all = ['--loglevel=error', ...args];
  const r =
    cli && /\.[cm]?js$/.test(cli)
      ? spawnSync(process.execPath, [cli, ...all], { cwd, encoding: 'utf8' })
      : spawnSync('npm', all, { cwd, encoding: 'utf8', shell: process.platform === 'win32' });
  if (r.status === 0) return;
  // npm's own words, without its prefixes, error code and log-file lines
  const said = (r.stderr ?? '')
    .split('\n')
    .map((l) => l.replace(/^npm (error|ERR!) /, '').trim())
    .filter((l) => l && !/^(code \w+|A complete log of this run)/.test(l))
    .map((l) => l.replace(/^[a-z]+ (?=[A-Z])/, '')); // "notarget No matching version…"
  throw new Error(`npm ${args.join(' ')} failed: ${said[0] ?? r.error?.message ?? `exit code ${r.status}`}`);
}

/** Fetches node-<os>-<arch>@MAJOR into the cache (a temp folder renamed into place). */
function fetchNode(major, dir) {
  const spec = `${packageName()}@${major}`;
  mkdirSync(dirname(dir), { recursive: true });
  const tmp = mkdtempSync(join(dirname(dir), `.node-${major}-`));
  try {
    npm(['pack', spec], tmp);
    const tarball = readdirSync(tmp).find((f) => f.endsWith('.tgz'));
    if (!tarball) throw new Error(`npm pack ${spec} wrote no tarball`);
    const tar = spawnSync('tar', ['xzf', tarball], { cwd: tmp, encoding: 'utf8' });
    if (tar.status !== 0) throw new Error(`tar could not unpack ${tarball}: ${tar.stderr || tar.error}`);
    rmSync(dir, { recursive: true, force: true });
    try {
      renameSync(join(tmp, 'package'), dir);
    } catch (err) {
      if (!versionOf(exeIn(dir))) throw err; // another run put one there first: it is used
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** The path of an official Node MAJOR from the cache, fetched first when it is not there. */
function officialNode(major, say = () => undefined) {
  const dir = join(cacheDir(), `node-${major}`);
  const found = versionOf(exeIn(dir));
  if (found?.split('.')[0] === String(major)) return { exe: exeIn(dir), version: found, dir, fetched: false };
  say(`fetching Node ${major} (${packageName()}@${major}) from the npm registry into ${dir}`);
  fetchNode(major, dir);
  const version = versionOf(exeIn(dir));
  if (version?.split('.')[0] !== String(major))
    throw new Error(`the Node unpacked into ${dir} is not Node ${major} (${version ?? 'it does not run'})`);
  return { exe: exeIn(dir), version, dir, fetched: true };
}

/** Runs SCRIPT here, or under the fallback Node with its bin/ first on PATH (for npm, npx, node). */
async function run(script, args) {
  const need = floor();
  if (supported(process.versions.node, need)) {
    process.argv = [process.execPath, resolve(script), ...args];
    await import(pathToFileURL(resolve(script)).href); // its errors are its own, as when run directly
    return;
  }
  const why = `Node ${process.versions.node} is older than ${need.join('.')} (package.json engines)`;
  const node = withAdvice(() =>
    officialNode(FALLBACK_MAJOR, (doing) => process.stderr.write(`${why}: ${doing}, to run ${script}\n`)),
  );
  if (!node) return;
  if (!node.fetched) process.stderr.write(`${why}: running ${script} on Node ${node.version} from ${node.dir}\n`);
  const env = { ...process.env };
  const pathKey = Object.keys(env).find((k) => k.toUpperCase() === 'PATH') ?? 'PATH';
  env[pathKey] = [dirname(node.exe), env[pathKey]].filter(Boolean).join(delimiter);
  const child = spawn(node.exe, [script, ...args], { stdio: 'inherit', env });
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  const forward = (signal) => child.kill(signal);
  for (const s of signals) process.on(s, forward);
  child.on('exit', (code, signal) => {
    for (const s of signals) process.off(s, forward);
    if (signal) process.kill(process.pid, signal);
    else process.exitCode = code ?? 1;
  });
}

/** `fetch()`, or undefined after saying why it failed and what to do instead (exit 1). */
function withAdvice(fetch) {
  try {
    return fetch();
  } catch (err) {
    const need = floor().join('.');
    process.stderr.write(
      `error: ${err.message}\n  install Node.js ${need} or newer (Node 24 LTS: https://nodejs.org)\n`,
    );
    process.exitCode = 1;
    return undefined;
  }
}

const [first, ...rest] = process.argv.slice(2);
if (first === '--path' && /^\d+$/.test(rest[0] ?? '')) {
  const node = withAdvice(() => officialNode(Number(rest[0])));
  if (node) console.log(node.exe);
} else if (first && !first.startsWith('-')) await run(first, rest);
else {
  process.stderr.write('usage: node scripts/supported-node.mjs SCRIPT [ARG…] | --path MAJOR\n');
  process.exitCode = 2;
}
