// scripts/supported-node.mjs, which `npm run build`, `npm test` and `npm run demo` go through: on
// a supported Node the script runs in this very process; on an older one (here a Node that says
// it is 20.20.2: a preload redefines process.versions, and clears NODE_OPTIONS so that the Node it
// starts does not pretend too) it runs on Node 24 from the cache, with one line saying so, that
// Node first on PATH and the script's exit code kept. Fetching is npm's `pack`: a stand-in npm
// (npm_execpath) packs a tarball as the registry's node-<os>-<arch> package is made, or fails.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, tempDir } from '../helpers/cli.js';

const work = tempDir('assess-supported-node-');
afterAll(() => work.cleanup());
const LAUNCHER = join(ROOT, 'scripts/supported-node.mjs');
const NODE_24 = execFileSync(join(ROOT, '.ci/node'), ['24'], { encoding: 'utf8' }).trim();

const probe = join(work.dir, 'probe.mjs');
writeFileSync(
  probe,
  'console.log(JSON.stringify({ pid: process.pid, node: process.versions.node, argv: process.argv.slice(1), ' +
    'path: process.env.PATH })); process.exitCode = Number(process.argv[2] ?? 0);\n',
);
const pretend = join(work.dir, 'pretend.cjs');
writeFileSync(
  pretend,
  "Object.defineProperty(process, 'versions', { value: { ...process.versions, node: '20.20.2' } });\n" +
    'delete process.env.NODE_OPTIONS;\n',
);
// a stand-in for npm: `pack SPEC` writes SPEC's tarball (package/bin/node, a link to a real Node 24)
const fakeNpm = join(work.dir, 'fake-npm.cjs');
writeFileSync(
  fakeNpm,
  "const { execFileSync } = require('node:child_process'); const fs = require('node:fs');\n" +
    "if (process.env.FAKE_NPM_FAILS) { console.error('npm error 404 Not Found'); process.exit(1); }\n" +
    "fs.mkdirSync('package/bin', { recursive: true }); fs.symlinkSync(process.env.FAKE_NODE, 'package/bin/node');\n" +
    "execFileSync('tar', ['czf', process.argv.at(-1) + '.tgz', 'package']); fs.rmSync('package', { recursive: true });\n",
);

type Run = { code: number | null; stdout: string; stderr: string; pid: number };
function launch(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [LAUNCHER, ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: work.dir, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, pid: child.pid! }));
  });
}
const older = (cache: string, env: Record<string, string> = {}) => ({
  NODE_OPTIONS: `--require ${pretend}`,
  ASSESS_NODE_CACHE: cache,
  npm_execpath: fakeNpm,
  FAKE_NODE: NODE_24,
  ...env,
});
/** A cache that already holds Node 24. */
function cacheWithNode24(name: string): string {
  const cache = join(work.dir, name);
  mkdirSync(join(cache, 'node-24', 'bin'), { recursive: true });
  symlinkSync(NODE_24, join(cache, 'node-24', 'bin', 'node'));
  return cache;
}

describe('scripts/supported-node.mjs', () => {
  it('on a supported Node: the script runs in this process, its arguments as given, nothing said', async () => {
    const r = await launch([probe, '0', 'two words']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const seen = JSON.parse(r.stdout) as { pid: number; node: string; argv: string[] };
    expect(seen).toMatchObject({ pid: r.pid, node: process.versions.node, argv: [probe, '0', 'two words'] });
  });

  it('on an older Node: the script runs on the cached Node 24, first on PATH, one line saying so', async () => {
    const cache = cacheWithNode24('cached');
    const r = await launch([probe, '7', 'x'], older(cache));
    expect(r.stderr).toMatch(
      /^Node 20\.20\.2 is older than 22\.13 \(package\.json engines\): running .*probe\.mjs on Node 24\.\d+\.\d+ from .*cached\/node-24\n$/,
    );
    expect(r.code).toBe(7); // the script's own exit code
    const seen = JSON.parse(r.stdout) as { pid: number; node: string; argv: string[]; path: string };
    expect(seen.node).toMatch(/^24\./);
    expect(seen.pid).not.toBe(r.pid);
    expect(seen.argv).toEqual([probe, '7', 'x']);
    expect(seen.path.split(delimiter)[0]).toBe(join(cache, 'node-24', 'bin'));
  });

  it('on an older Node with nothing cached: Node 24 is fetched with npm pack once, then taken from the cache', async () => {
    const cache = join(work.dir, 'empty');
    const first = await launch([probe], older(cache));
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toMatch(
      /^Node 20\.20\.2 is older than 22\.13 \(package\.json engines\): fetching Node 24 \(node-\w+-\w+@24\) from the npm registry into .*empty\/node-24, to run .*probe\.mjs\n$/,
    );
    expect((JSON.parse(first.stdout) as { node: string }).node).toMatch(/^24\./);
    expect(readdirSync(cache)).toEqual(['node-24']); // the download's temp folder is gone
    const again = await launch([probe], older(cache, { FAKE_NPM_FAILS: '1' })); // npm is not asked again
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/: running .*probe\.mjs on Node 24\./);
  });

  it('a fetch that fails: exit 1, what failed and the way out, the script not run', async () => {
    const cache = join(work.dir, 'offline');
    const r = await launch([probe], older(cache, { FAKE_NPM_FAILS: '1' }));
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines[0]).toMatch(/: fetching Node 24 /);
    expect(lines[1]).toMatch(/^error: npm pack node-\w+-\w+@24 failed: 404 Not Found$/);
    expect(lines[2]).toBe('  install Node.js 22.13 or newer (Node 24 LTS: https://nodejs.org)');
    expect(readdirSync(cache)).toEqual([]);
  });

  it('--path MAJOR prints where that Node is (what .ci/node prints)', async () => {
    const cache = cacheWithNode24('for-path');
    const r = await launch(['--path', '24'], { ASSESS_NODE_CACHE: cache });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${join(cache, 'node-24', 'bin', 'node')}\n`);
  });
});
