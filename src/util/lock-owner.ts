// Who holds a file's lock, read without taking it (no node:crypto: `sandbox status` and `stop`
// read the state lock's owner when the shared sandbox's record is unreadable). A lock file
// (src/util/pid-lock.ts) holds "pid" or "pid start", start as /proc tells it (src/util/process-alive.ts);
// the lock beside a file is named after the file's real path (src/util/file-lock.ts).
import { readFileSync, realpathSync } from 'node:fs';
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

/** The pid (and start time) a lock file names, or null when it is gone or holds no pid. */
export function readPidLockOwner(lockPath: string): { pid: number; startedAt?: string } | null {
  try {
    const [pidText, startedAt] = readFileSync(lockPath, 'utf8').trim().split(' ');
    const pid = Number(pidText);
    return Number.isInteger(pid) && pid > 0 ? { pid, startedAt } : null;
  } catch {
    return null; // removed in between (or unreadable)
  }
}
