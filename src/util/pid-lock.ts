// A lock file that holds its owner's pid, for files one process at a time may own (the
// sandbox's state, a bulk journal). It is created with link(2), which fails when the file
// exists, so exactly one process wins and the lock never exists without its pid in it. A lock
// whose process is gone (kill -9, power cut) is stale and taken over.
import { randomBytes } from 'node:crypto';
import { closeSync, linkSync, openSync, readFileSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { processAlive } from './process-alive.js';
import { writeAllSync } from './write-all.js';

const held = new Set<string>();
let exitHookInstalled = false;

/** null when the lock is now ours; otherwise the pid of the live process holding it. */
export function tryPidLock(lockPath: string): number | null {
  const temp = join(dirname(lockPath), `.${basename(lockPath)}.${process.pid}.${randomBytes(4).toString('hex')}`);
  const fd = openSync(temp, 'wx', 0o600);
  try {
    writeAllSync(fd, `${process.pid}\n`);
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
  const pid = readPid(lockPath);
  if (pid !== null && (held.has(lockPath) || processAlive(pid))) return pid;
  // Stale (its process is gone) or unreadable: remove it, unless it changed hands meanwhile, and
  // try again; the link above decides who gets it. (Two processes starting in the same few
  // microseconds after a crash could still both pass this check; that is left as it is.)
  if (readPid(lockPath) === pid) rmSync(lockPath, { force: true });
  return tryPidLock(lockPath);
}

/** Gives a lock taken by tryPidLock back. */
export function releasePidLock(lockPath: string): void {
  if (!held.delete(lockPath)) return;
  rmSync(lockPath, { force: true });
}

function readPid(lockPath: string): number | null {
  try {
    const pid = Number(readFileSync(lockPath, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null; // removed in between: the retry will see
  }
}

/** A process that exits without releasing still gives its locks back. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const lockPath of held) rmSync(lockPath, { force: true });
  });
}
