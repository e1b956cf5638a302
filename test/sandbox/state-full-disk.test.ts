// --state on a full disk and on a read-only one (a small tmpfs; the tests run as root here): a
// change that cannot be committed is answered 5xx, never 2xx, and is not kept (its transaction
// rolled back); once there is room the next changes commit, and the file opens whole. A state
// that cannot take a change is refused when the sandbox starts.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { readState } from '../helpers/sandbox-state.js';
import { harness } from './helpers.js';

/** A tmpfs of `kb` KiB, or why none could be mounted. */
function smallDisk(kb: number): { dir: string; cleanup(): void } | { why: string } {
  const dir = mkdtempSync(join(tmpdir(), 'assess-state-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${kb}k`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    return { why: (err as Error).message.split('\n')[0]! };
  }
  return {
    dir,
    cleanup: () => {
      execFileSync('umount', [dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Fills the disk: a file as large as what is left (tmpfs counts whole pages). */
function fill(dir: string): string {
  const filler = join(dir, 'filler');
  const chunk = Buffer.alloc(4096, 120);
  try {
    for (;;) writeFileSync(filler, chunk, { flag: 'a' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  }
  return filler;
}

describe('--state on a full disk', () => {
  it('a change that cannot be committed is answered 5xx and not kept; with room again, changes commit', async () => {
    const disk = smallDisk(2048);
    if ('why' in disk) return void console.warn(`skipped: no tmpfs could be mounted (${disk.why})`);
    const file = join(disk.dir, 'state.db');
    const h = await harness({ stateFile: file });
    let filler: string | undefined;
    try {
      const before = await h.inviteA(1001, 'before@full.test');
      filler = fill(disk.dir);
      // the write-ahead log may still have room for a commit or two: invite until one does not fit
      const answered: string[] = [];
      let refused: Awaited<ReturnType<typeof h.api>> | undefined;
      for (let i = 0; i < 200 && !refused; i++) {
        const r = await h.api('POST', '/v3/tests/1001/invite', { email: `fill${i}@full.test`, name: 'Filling' });
        if (r.status === 200) answered.push(`fill${i}@full.test`);
        else refused = r;
      }
      expect(refused?.status).toBe(500);
      expect(JSON.stringify(refused!.body)).toMatch(
        `cannot use the sandbox state ${file}: no space left on the device`,
      );

      rmSync(filler);
      filler = undefined;
      const after = await h.inviteA(1001, 'after@full.test');
      const emails = readState(file).invitations.map((i) => i.email);
      expect(emails).toEqual(expect.arrayContaining(['before@full.test', ...answered, 'after@full.test']));
      expect(emails).not.toContain(`fill${answered.length}@full.test`); // refused: never kept
      expect(readState(file).invitations.map((i) => i.testInvitationId)).toEqual(
        expect.arrayContaining([before, after]),
      );
    } finally {
      if (filler) rmSync(filler, { force: true });
      await h.close();
      disk.cleanup();
    }
  });

  it('a state on a full or read-only disk is refused at start, naming the file and the cause', async () => {
    const disk = smallDisk(2048);
    if ('why' in disk) return void console.warn(`skipped: no tmpfs could be mounted (${disk.why})`);
    const file = join(disk.dir, 'state.db');
    try {
      await (await startSandbox({ stateFile: file })).close();
      const filler = fill(disk.dir);
      await expect(startSandbox({ stateFile: join(disk.dir, 'new.db') })).rejects.toThrow(
        /cannot use the sandbox state .*new\.db: no space left on the device/,
      );
      rmSync(filler);
      execFileSync('mount', ['-o', 'remount,ro', disk.dir]);
      await expect(startSandbox({ stateFile: file })).rejects.toThrow(
        `cannot use the sandbox state ${file}: the file or its directory is read-only`,
      );
      execFileSync('mount', ['-o', 'remount,rw', disk.dir]);
    } finally {
      disk.cleanup();
    }
  });
});
