// Who holds a file's lock, read without taking it (no node:crypto: `sandbox status` and `stop`
// read the state lock's owner when the shared sandbox's record is unreadable). A lock file
// (src/util/pid-lock.ts) holds "pid" or "pid start", start as /proc tells it (src/util/process-alive.ts);
// the lock beside a file is named after the file's real path (src/util/file-lock.ts).
import { closeSync, fstatSync, openSync, readFileSync, realpathSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

/** The real path of `path`, or of its directory + its name when it does not exist (yet). */
export function realName(path: string): string {
  const abs = resolve(path);
  try {
    return realpathSync(abs);
  } catch {
    try {
      return join(realpathSync(dirname(abs)), basename(abs));
    } catch {
      return abs;
    }
  }
}

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

/** The pid (and start time) a lock file names, or null when it is gone or holds no pid. */
export function readPidLockOwner(lockPath: string): PidLockOwner | null {
  const owner = readLockFile(lockPath);
  return owner === 'gone' ? null : owner;
}
