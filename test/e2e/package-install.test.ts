// The package installs: `npm pack` on a copy of the sources without dist/ (as a fresh clone is)
// builds through `prepack`, the tarball installs into an empty prefix with `npm install -g
// --prefix`, and the installed `assess` runs --version, a sandbox listing and a report export.
// It installs as a lean, honest package under the Node running the tests and an
// official Node 24 (.ci/node 24): one package (everything is bundled into dist/), no npm warning
// (an engine range of a dependency, a peer range), ≤ 25 MB, and the docs its help points at.
import { execFile, execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, ROOT, tempDir, type RunResult } from '../helpers/cli.js';

const run = promisify(execFile);
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
const work = tempDir('assess-pack-');
const prefix = join(work.dir, 'prefix');
const configDir = join(work.dir, 'config');
let tarball = '';
let files: string[] = [];
const MAX_INSTALLED_BYTES = 25 * 2 ** 20;
// each Node the package is installed with: its install's prefix and what npm printed
const NODES = [
  { label: `the tests' Node (${process.version})`, node: process.execPath, prefix },
  {
    label: 'Node 24',
    node: execFileSync(join(ROOT, '.ci/node'), ['24'], { encoding: 'utf8' }).trim(),
    prefix: join(work.dir, 'prefix-24'),
  },
].map((n) => ({ ...n, npmOutput: '' }));

// npm's own environment minus anything that would point it at this project (npm_config_prefix,
// npm_package_*), so the install goes where --prefix says.
function npmEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    npm_config_update_notifier: 'false',
  };
  for (const k of Object.keys(env))
    if (/^npm_(package_|lifecycle_|config_prefix$|config_global$)/i.test(k)) delete env[k];
  return env;
}

/** Bytes of the files under dir (what the install put on disk). */
function bytesUnder(dir: string): number {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .reduce((sum, e) => sum + statSync(join(e.parentPath, e.name)).size, 0);
}

function installed(args: string[], env: NodeJS.ProcessEnv = {}, at = NODES[0]!): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    // the bin link npm made, run as a user would: through its #!/usr/bin/env node line
    const child = spawn(join(at.prefix, 'bin', 'assess'), args, {
      cwd: work.dir,
      env: {
        ...baseEnv(configDir),
        PATH: `${join(at.prefix, 'bin')}:${dirname(at.node)}:${process.env.PATH ?? ''}`,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

beforeAll(async () => {
  // A clone's files without dist/ or node_modules; the installed dev tools are linked in for the build.
  const src = join(work.dir, 'src');
  mkdirSync(src);
  for (const f of [
    'package.json',
    'package-lock.json',
    'LICENSE',
    'README.md',
    'CHANGELOG.md',
    'bin',
    'src',
    'scripts',
    'docs',
  ])
    cpSync(join(ROOT, f), join(src, f), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(src, 'node_modules'), 'dir');
  const packs = join(work.dir, 'packs');
  mkdirSync(packs);
  await run('npm', ['pack', '--pack-destination', packs], { cwd: src, env: npmEnv() });
  tarball = join(
    packs,
    readdirSync(packs).find((f) => f.endsWith('.tgz'))!,
  );
  const { stdout } = await run('tar', ['tzf', tarball]);
  files = stdout.split('\n').filter(Boolean);
  // npm itself runs on the Node being tested (its engine checks use that Node's version)
  for (const at of NODES) {
    const env = { ...npmEnv(), PATH: `${dirname(at.node)}:${process.env.PATH ?? ''}` };
    const r = await run('npm', ['install', '-g', '--prefix', at.prefix, '--prefer-offline', tarball], {
      cwd: work.dir,
      env,
    });
    at.npmOutput = r.stdout + r.stderr;
  }
}, 240_000);

afterAll(() => work.cleanup());

describe('the packed package', () => {
  it('holds the build, the licence and nothing of the sources', () => {
    expect(tarball).toMatch(new RegExp(`${pkg.name}-${pkg.version.replace(/\./g, '\\.')}\\.tgz$`));
    expect(files).toEqual(
      expect.arrayContaining([
        'package/package.json',
        'package/LICENSE',
        'package/README.md',
        'package/bin/assess.cjs',
        'package/dist/main.cjs',
        'package/dist/cli.cjs',
        'package/dist/vendor/undici.cjs',
        'package/dist/vendor/prompts.cjs',
        'package/dist/vendor/fastify.cjs',
        'package/dist/vendor/pdfkit.cjs',
        'package/dist/vendor/mcp.cjs',
        'package/dist/vendor/chalk.cjs',
        'package/dist/vendor/table.cjs',
        'package/dist/vendor/csv-parse.cjs',
        'package/dist/vendor/jmespath.cjs',
        'package/docs/mcp.md',
        'package/docs/commands.md',
        'package/docs/sandbox.md',
      ]),
    );
    expect(files.filter((f) => f.endsWith('.cache'))).toEqual([]); // Node's compile cache lives outside the package
    expect(files.filter((f) => f.endsWith('.map'))).toEqual([]); // source maps are for this repository
    expect(files.filter((f) => f.includes('standalone'))).toEqual([]);
    expect(
      files.filter((f) => f.startsWith('package/src/') || f.startsWith('package/test/') || f.includes('node_modules')),
    ).toEqual([]);
  });

  // one character above U+00FF makes V8 hold a whole bundle as two bytes a character
  it('ships bundles of ASCII only', () => {
    const dist = join(prefix, 'lib', 'node_modules', pkg.name, 'dist');
    const bundles = readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.cjs'));
    expect(bundles).toContain('cli.cjs');
    for (const f of bundles) expect(readFileSync(join(dist, f), 'latin1').search(/[^\x00-\x7f]/), f).toBe(-1);
  });

  it('declares no runtime dependency: everything it runs is in dist/', () => {
    const manifest = JSON.parse(
      readFileSync(join(prefix, 'lib', 'node_modules', pkg.name, 'package.json'), 'utf8'),
    ) as Record<string, unknown>;
    for (const field of ['dependencies', 'optionalDependencies', 'peerDependencies', 'bundleDependencies'])
      expect(manifest[field]).toBeUndefined();
  });

  for (const at of NODES)
    it(`installs on ${at.label}: one package, no warning, ≤ 25 MB, and runs`, async () => {
      expect(at.npmOutput).not.toMatch(/warn|EBADENGINE|deprecated/i);
      expect(at.npmOutput).toMatch(/added 1 package\b/);
      expect(existsSync(join(at.prefix, 'lib', 'node_modules', pkg.name, 'node_modules'))).toBe(false);
      expect(bytesUnder(at.prefix)).toBeLessThanOrEqual(MAX_INSTALLED_BYTES);
      const v = await installed(['--version'], {}, at);
      expect(v.stdout).toBe(`${pkg.version}\n`);
      const r = await installed(['--sandbox', 'tests', 'get', '1001', '--json'], {}, at);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/"testId": 1001/);
    });

  it("--help's last line names documentation the package installed", async () => {
    const r = await installed(['--help']);
    expect(r.code).toBe(0);
    const last = r.stdout.trimEnd().split('\n').pop()!;
    expect(last).toMatch(/^Docs: assess help <command>; manuals: .*\/assess-cli\/docs\/$/);
    for (const doc of ['cohort.md', 'commands.md', 'sandbox.md', 'scripting.md'])
      expect(existsSync(join(prefix, 'lib', 'node_modules', pkg.name, 'docs', doc))).toBe(true);
  });

  it('installs into an empty prefix with its bin link', () => {
    expect(existsSync(join(prefix, 'bin', 'assess'))).toBe(true);
    expect(existsSync(join(prefix, 'lib', 'node_modules', pkg.name, 'dist', 'main.cjs'))).toBe(true);
  });

  it('assess --version prints the version of package.json', async () => {
    const r = await installed(['--version']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${pkg.version}\n`);
  });

  it('assess completion bash works installed', async () => {
    const r = await installed(['completion', 'bash']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('complete -F _assess assess');
  });

  it('assess --sandbox tests list lists the seed tests', async () => {
    const r = await installed(['--sandbox', 'tests', 'list']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^1001\tJava Backend Developer\tActive/m);
    expect(r.stderr).toMatch(/embedded sandbox/);
  });

  it('assess --sandbox report export writes the summary of the completed attempts', async () => {
    const out = join(work.dir, 'reports');
    const r = await installed([
      '--sandbox',
      'report',
      'export',
      '--state',
      'completed',
      '--from',
      '30d',
      '--to',
      'now',
      '--out',
      out,
    ]);
    expect(r.stderr).toMatch(/: (\d+) exported in /);
    expect(r.code).toBe(0);
    const summary = readFileSync(join(out, 'summary.csv'), 'utf8').trim().split('\n');
    expect(summary[0]).toMatch(/^testInvitationId,testId,candidateName/);
    // the seed's finished attempt of account A (Alice Archer, 2 days ago) is in the 30-day window
    expect(summary.some((l) => l.startsWith('900001,1001,Alice Archer,'))).toBe(true);
    expect(summary.length - 1).toBe(Number(/(\d+) exported/.exec(r.stderr)![1]));
  });
});
