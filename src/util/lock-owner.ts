// Who holds a pid lock, read without taking it. A lock file (src/util/pid-lock.ts) holds "pid"
// or "pid start", start as /proc tells it (src/util/process-alive.ts).
import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';

/** What a lock file says of its owner; `writtenAtMs` is its mtime (a lock is never rewritten). */
export interface PidLockOwner {
  pid: number;
  startedAt?: string;
  writtenAtMs: number;
}

/**
 * The owner a lock file names; 'gone' when there is no file (released in between), null when it
 * holds no pid (damaged: a lock is linked into place whole, so never a lock being written).
 */
export function readLockFile(lockPath: string): PidLockOwner | 'gone' | null {
  let fd: number;
  try {
    fd = openSync(lockPath, 'r');
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'gone' : null;
  }
  try {
    const writtenAtMs = fstatSync(fd).mtimeMs;
    const [pidText, startedAt] = readFileSync(fd, 'utf8').trim().split(' ');
    const pid = Number(pidText);
    return Number.isInteger(pid) && pid > 0 ? { pid, startedAt, writtenAtMs } : null;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}
