// The standard streams of the built binary (src/cli/real-process.ts, src/cli/stdout-guard.ts):
// stdout's error handler, attached when stdout is first used.
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, BIN, ROOT, tempDir, NODE } from '../helpers/cli.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const t = tempDir('assess-modules-');
afterAll(() => t.cleanup());
/** Runs the binary with stdout on `out` (a descriptor, or a pipe closed before it writes), stderr on `err` (a
 * descriptor, else a pipe). */
function withStdout(
  args: string[],
  out: number | 'closed-pipe' | 'pipe',
  opts: { err?: number; env?: Record<string, string> } = {},
) {
  const cfg = tempDir();
  const child = spawn(NODE, [BIN, ...args], {
    env: { ...baseEnv(cfg.dir), ...opts.env } as NodeJS.ProcessEnv,
    cwd: ROOT,
    stdio: ['ignore', out === 'closed-pipe' ? 'pipe' : out, opts.err ?? 'pipe'],
  });
  if (out === 'closed-pipe')
    child.stdout!.destroy(); // the reader is gone before anything is written (`| head` done)
  else child.stdout?.resume();
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (d) => (stderr += d));
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

describe('standard streams on a character device that is not a terminal (/dev/full)', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(() => sandbox?.close());
  const onFull = async <T>(use: (fd: number) => Promise<T>): Promise<T> => {
    const full = openSync('/dev/full', 'w');
    try {
      return await use(full);
    } finally {
      closeSync(full);
    }
  };

  it('stdout: a result that cannot be written is exit 2, one line naming ENOSPC', async () => {
    const r = await onFull((fd) => withStdout(['tests', 'list', '--json'], fd, { env: sandbox.env }));
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('error: cannot write to standard output: no space left on the device (ENOSPC)\n');
  });

  it('stderr: a message that cannot be written does not change the exit code', async () => {
    const usage = await onFull((fd) => withStdout(['tests', 'get', '1001', '--page', 'x'], 'pipe', { err: fd }));
    expect(usage.code).toBe(2);
    const notFound = await onFull((fd) => withStdout(['tests', 'get', '99999'], 'pipe', { err: fd, env: sandbox.env }));
    expect(notFound.code).toBe(4);
  });
});
