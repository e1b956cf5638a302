// Real file-system conditions for tests: a small tmpfs (a disk that fills up), remounted
// read-only, or filled to the last byte. Needs root (the tests run as root here); where a mount
// is impossible, `mountable()` says why and the test file skips, printing that reason.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, openSync, closeSync, writeSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Tmpfs {
  dir: string;
  /** Remounts it read-only (EROFS for every write), or back read-write. */
  readOnly(on?: boolean): void;
  /** Writes a filler file until the file system is full: every later write fails with ENOSPC. */
  fill(): void;
  /** Unmounts and removes the mount point. */
  close(): void;
}

let why: string | null | undefined;

/** null when tmpfs mounts work here; else the reason they do not. */
export function unmountable(): string | null {
  if (why !== undefined) return why;
  try {
    const t = mountTmpfs('16k');
    t.close();
    why = null;
  } catch (err) {
    why = `cannot mount a tmpfs here (${(err as Error).message.split('\n')[0]}); these tests need root on Linux`;
  }
  return why;
}

export function mountTmpfs(size = '64k'): Tmpfs {
  const dir = mkdtempSync(join(tmpdir(), 'assess-tmpfs-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=1777`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    dir,
    readOnly: (on = true) => void execFileSync('mount', ['-o', `remount,${on ? 'ro' : 'rw'}`, dir], { stdio: 'pipe' }),
    fill: () => {
      const fd = openSync(join(dir, '.filler'), 'a');
      const block = Buffer.alloc(4096);
      try {
        for (;;) if (writeSync(fd, block) < block.length) break;
      } catch {
        // ENOSPC: full
      } finally {
        closeSync(fd);
      }
      // the last page may still take a few bytes: take them too
      const fd2 = openSync(join(dir, '.filler2'), 'a');
      try {
        for (;;) if (writeSync(fd2, Buffer.alloc(1)) < 1) break;
      } catch {
        // full to the byte
      } finally {
        closeSync(fd2);
      }
    },
    close: () => {
      execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
