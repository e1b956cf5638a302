// The standard streams of the built binary (src/cli/real-process.ts, src/cli/stdout-guard.ts):
// stdout's error handler, attached when stdout is first used.
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { baseEnv, BIN, ROOT, runAssess, tempDir, NODE } from '../helpers/cli.js';

const t = tempDir('assess-modules-');
afterAll(() => t.cleanup());
/** Runs the binary with stdout on `out` (a descriptor, or a pipe closed before it writes). */
function withStdout(args: string[], out: number | 'closed-pipe') {
  const cfg = tempDir();
  const child = spawn(NODE, [BIN, ...args], {
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
