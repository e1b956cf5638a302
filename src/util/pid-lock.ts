// A lock file that holds its owner's pid (and, where /proc tells it, when that process started:
// "pid start"), for files one process at a time may own (the sandbox's state, a bulk journal).
// It is created with link(2), which fails when the file exists, so exactly one process wins and
// the lock never exists without its pid in it. A lock whose process is gone (kill -9, power cut,
// or its pid now another process's) is stale and taken over.
import { randomBytes } from 'node:crypto';
import { closeSync, linkSync, openSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { removeLeftoversOnce } from './leftovers.js';
import { readLockFile } from './lock-owner.js';
import { processAlive, processStartedAt } from './process-alive.js';
import { writeAllSync } from './write-all.js';

const held = new Set<string>();
let exitHookInstalled = false;

/** `.<lock>.<pid>.<random>`: the lock's content before link(2) names it (a kill -9 in between leaves it). */
const TEMP = /^\..+\.lock\.(?<pid>\d+)\.[0-9a-f]{8}$/;

/** null when the lock is now ours; otherwise the pid of the live process holding it. */
export function tryPidLock(lockPath: string): number | null {
  removeLeftoversOnce(dirname(lockPath), TEMP);
  const temp = join(dirname(lockPath), `.${basename(lockPath)}.${process.pid}.${randomBytes(4).toString('hex')}`);
  const fd = openSync(temp, 'wx', 0o600);
  try {
    const started = processStartedAt(process.pid);
    writeAllSync(fd, started === undefined ? `${process.pid}\n` : `${process.pid} ${started}\n`);
  } catch (err) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw err;
  }
  closeSync(fd);
  try {
    linkSync(temp, lockPath);
    held.add(lockPath);
    installExitHook();
    return null;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    rmSync(temp, { force: true });
  }
  const owner = readLockFile(lockPath);
  if (owner === 'gone') return tryPidLock(lockPath); // released in between: try again
  if (owner && (held.has(lockPath) || processAlive(owner.pid, owner.startedAt, owner.writtenAtMs))) return owner.pid;
  // Stale (its process is gone) or damaged: remove it, unless it changed hands meanwhile (a lock
  // linked in between names another pid), and try again; the link above decides who gets it.
  // (Two processes starting in the same few microseconds after a crash could still both pass
  // this check; that is left as it is.)
  const now = readLockFile(lockPath);
  if (now !== 'gone' && (now?.pid ?? null) === (owner?.pid ?? null)) rmSync(lockPath, { force: true });
  return tryPidLock(lockPath);
}

/** Gives a lock taken by tryPidLock back. */
export function releasePidLock(lockPath: string): void {
  if (!held.delete(lockPath)) return;
  rmSync(lockPath, { force: true });
}

/** A process that exits without releasing still gives its locks back. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const lockPath of held) rmSync(lockPath, { force: true });
  });
}
