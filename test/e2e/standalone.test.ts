// The standalone executables: `node scripts/package.mjs --out DIR` (what `npm run package` runs)
// writes one file per target. The x64 one, run with `env -i PATH=/nonexistent` — no node, no
// node_modules, nothing of this repository on any path — serves its own sandbox and goes
// through a recruiter's workflow against it: invite → simulate → report → PDF. The arm64 one
// cannot run here: its format, its injected program and its flipped fuse are checked instead.
import { execFile, execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, tempDir, type RunResult } from '../helpers/cli.js';

const run = promisify(execFile);
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
const work = tempDir('assess-standalone-');
const exe = join(work.dir, 'bin', 'assess-linux-x64');
const arm64 = join(work.dir, 'bin', 'assess-linux-arm64');
const configDir = join(work.dir, 'config');
let server: ChildProcessWithoutNullStreams | undefined;
let sandbox = { baseUrl: '', keys: [''] };

/** The executable under `env -i PATH=/nonexistent` plus the given variables. */
function standalone(args: string[], vars: Record<string, string> = {}): Promise<RunResult> {
  const child = spawnStandalone(args, vars);
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

function spawnStandalone(args: string[], vars: Record<string, string>): ChildProcessWithoutNullStreams {
  const env = Object.entries({ ASSESS_CONFIG_DIR: configDir, NO_COLOR: '1', ...vars }).map(([k, v]) => `${k}=${v}`);
  return spawn('/usr/bin/env', ['-i', 'PATH=/nonexistent', ...env, exe, ...args], { cwd: work.dir });
}

const service = () => ({ ASSESS_BASE_URL: sandbox.baseUrl, ASSESS_API_KEY: sandbox.keys[0]! });

beforeAll(async () => {
  await run(process.execPath, [join(ROOT, 'scripts/package.mjs'), '--out', join(work.dir, 'bin')], {
    cwd: ROOT,
    maxBuffer: 1 << 24,
  });
  server = spawnStandalone(['sandbox', 'serve', '--port', '0', '--json'], {});
  sandbox = await new Promise((resolve, reject) => {
    let line = '';
    server!.stdout.setEncoding('utf8').on('data', (d: string) => {
      line += d;
      if (line.includes('\n')) resolve(JSON.parse(line.split('\n')[0]!) as typeof sandbox);
    });
    server!.on('error', reject);
    server!.on('close', (code) => reject(new Error(`sandbox serve exited with ${code}`)));
  });
}, 240_000);

afterAll(() => {
  server?.kill('SIGTERM');
  work.cleanup();
});

describe('the standalone executable (no node on PATH)', () => {
  it('is one executable file', () => {
    const st = statSync(exe);
    expect(st.isFile()).toBe(true);
    expect(st.mode & 0o111).toBe(0o111);
  });

  it('has an arm64 sibling: an aarch64 ELF with the program injected and its fuse flipped', () => {
    expect(execFileSync('file', ['-b', arm64], { encoding: 'utf8' })).toMatch(/^ELF 64-bit LSB .*ARM aarch64/);
    const bytes = readFileSync(arm64);
    // postject flips the sentinel's last character to 1: Node then looks for the blob and runs it
    expect(bytes.includes('NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2:1')).toBe(true);
    expect(bytes.includes('Usage: assess <command> [options]')).toBe(true); // the program's script (src/cli/summary.ts)
  });

  it('answers --version and --help', async () => {
    const v = await standalone(['--version']);
    expect(v.stderr).toBe('');
    expect(v.stdout).toBe(`${pkg.version}\n`);
    const h = await standalone(['help', 'invite']);
    expect(h.code).toBe(0);
    expect(h.stdout).toMatch(/^Usage: assess invite/);
    // no docs/ beside it: its help says where the manuals are instead of naming a path
    const top = await standalone(['--help']);
    expect(top.stdout.trimEnd().split('\n').pop()).toBe(
      'Docs: assess help <command>; manuals: docs/*.md in the source repository',
    );
  });

  it('rejects a bad argument with exit 2 and one line, as the npm CLI does', async () => {
    const r = await standalone(['tests', 'get', 'abc']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: <testId>: must be a positive integer id/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('serves its own sandbox and runs invite → simulate → report → PDF against it', async () => {
    expect(sandbox.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+/);
    const invited = await standalone(
      ['invite', '1001', '--email', 'ann.lee@example.com', '--name', 'Ann Lee', '--json'],
      service(),
    );
    expect(invited.code, invited.stderr).toBe(0);
    const id = String((JSON.parse(invited.stdout) as { testInvitationId: number | string }).testInvitationId);
    for (const step of [['start'], ['complete', '--score', '82']]) {
      const r = await standalone(['sandbox', 'simulate', id, ...step, '--url', sandbox.baseUrl], service());
      expect(r.code, r.stderr).toBe(0);
    }
    const report = await standalone(['report', id, '--json'], service());
    expect(report.code, report.stderr).toBe(0);
    expect(report.stdout).toMatch(/"candidateName": "Ann Lee"/);
    expect(report.stdout).toMatch(/"status": "Complete"/);
    const pdf = join(work.dir, 'ann.pdf');
    const saved = await standalone(['report', id, '--pdf', '-o', pdf], service());
    expect(saved.code, saved.stderr).toBe(0);
    const bytes = readFileSync(pdf);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(bytes.subarray(-6).toString('latin1')).toMatch(/%%EOF\s*$/);
    // pdfkit's standard font, bundled into the executable as JavaScript
    expect(bytes.toString('latin1')).toContain('/BaseFont /Helvetica');
  });

  it('runs the embedded sandbox (--sandbox) too', async () => {
    const r = await standalone(['--sandbox', 'tests', 'list']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^1001\tJava Backend Developer\tActive/m);
  });
});
