// The standard streams of the built binary are built on first use (src/cli/real-process.ts,
// src/cli/stdout-guard.ts). What it loads of Node for a command that sends nothing, stderr on a
// pipe as in a script that captures it (Node's own process.stderr would load node:net there; a
// preload records Node's list of loaded modules at exit), and stdout's error handler, attached
// when stdout is first used.
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { baseEnv, BIN, ROOT, runAssess, tempDir } from '../helpers/cli.js';

const t = tempDir('assess-modules-');
afterAll(() => t.cleanup());
const preload = join(t.dir, 'record-modules.cjs');
writeFileSync(preload, `process.on('exit', () => require('node:fs').writeFileSync(process.env.MODULES_OUT, JSON.stringify(process.moduleLoadList)));\n`);

async function loaded(args: string[], env: Record<string, string> = {}) {
  const out = join(t.dir, `${args.join('-')}.json`);
  const r = await runAssess(args, { env: { NODE_OPTIONS: `--require ${preload}`, MODULES_OUT: out, ...env } });
  return { ...r, modules: JSON.parse(readFileSync(out, 'utf8')) as string[] };
}

describe('modules loaded by commands that send nothing, stderr on a pipe', () => {
  it('a usage error is written whole without node:net', async () => {
    const r = await loaded(['tests', 'get', 'abc']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: .*abc/);
    expect(r.modules).not.toContain('NativeModule net');
  });

  it('auth status without a key says so without node:net', async () => {
    const r = await loaded(['auth', 'status'], { ASSESS_API_KEY: '' });
    expect(r.code).not.toBe(0);
    expect(r.stderr).not.toBe('');
    expect(r.modules).not.toContain('NativeModule net');
  });

  it('(the check can fail: a command that writes its answer to a piped stdout loads node:net)', async () => {
    const r = await loaded(['config', 'list']);
    expect(r.code).toBe(0);
    expect(r.modules).toContain('NativeModule net');
  });
});

/** Runs the binary with stdout on `out` (a descriptor, or a pipe closed before it writes). */
function withStdout(args: string[], out: number | 'closed-pipe') {
  const cfg = tempDir();
  const child = spawn(process.execPath, [BIN, ...args], {
    env: baseEnv(cfg.dir) as NodeJS.ProcessEnv,
    cwd: ROOT,
    stdio: ['ignore', out === 'closed-pipe' ? 'pipe' : out, 'pipe'],
  });
  if (out === 'closed-pipe') child.stdout!.destroy(); // the reader is gone before anything is written (`| head` done)
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (d) => (stderr += d));
  return new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.on('close', (code) => {
      cfg.cleanup();
      resolve({ code, stderr });
    }),
  );
}

describe('stdout’s error handler, attached when stdout is first used', () => {
  it('a reader that has gone (EPIPE) ends the run quietly, exit 0', async () => {
    const r = await withStdout(['config', 'list'], 'closed-pipe');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  it('a full disk (ENOSPC) is named, exit 2, no stack trace', async () => {
    const full = openSync('/dev/full', 'w');
    const r = await withStdout(['config', 'list'], full);
    closeSync(full);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: cannot write to standard output: no space left on the device \(ENOSPC\)$/m);
    expect(r.stderr).not.toMatch(/\bat \S+ \(/);
  });
});
