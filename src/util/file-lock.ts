// A lock on a file by its identity, not by the name it was given: the sandbox's state, the
// callbacks inbox. Two pid locks (src/util/pid-lock.ts) are taken:
// - `<real path>.lock` beside the file: every spelling of one name (`./j`, `/abs/j`, a symlink,
//   a symlinked directory) resolves to the same real path, so to the same lock;
// - `<lock dir>/<device>-<inode>.lock`: a hard link is another name of the same inode, so it
//   meets this lock wherever it lives. The lock dir is private to the user (0700, in the temp
//   directory), so nobody else can plant or remove a lock there.
// Node has no flock(2)/fcntl(2) locks without a native add-on; this is plain link(2) and rm.
// A file that does not exist yet (a sandbox state never saved) is locked by its name only.
// An inode number names a file only while the inode lives: the file is kept open while the lock
// is held (by the caller, or here), so a file replaced by rename (a sandbox save) cannot free its
// inode for an unrelated new file that would then look locked.
import { closeSync, constants, fstatSync, lstatSync, openSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { realName } from './lock-owner.js';
import { releasePidLock, tryPidLock } from './pid-lock.js';
import { makeDirs } from './private-dir.js';

export { realName };

export interface FileLock {
  /** The lock beside the file (`<real path>.lock`). */
  readonly path: string;
  release(): void;
}

export type LockAttempt = { lock: FileLock; holder?: undefined } | { lock?: undefined; holder: number };

/** The private directory of identity locks (created 0700); an unsafe one is an error. */
export function lockDir(): string {
  const uid = process.getuid?.();
  const dir = join(tmpdir(), `assess-locks${uid === undefined ? '' : `-${uid}`}`);
  let st;
  try {
    makeDirs(dir);
    st = lstatSync(dir);
  } catch (err) {
    throw new UsageError(
      `cannot create the lock directory ${dir} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
      'point TMPDIR to a directory this user may write',
    );
  }
  // another user's directory, or a symlink planted where ours would be: not a place for our locks
  if (
    !st.isDirectory() ||
    (uid !== undefined && st.uid !== uid) ||
    (process.platform !== 'win32' && (st.mode & 0o022) !== 0)
  )
    throw new UsageError(
      `the lock directory ${dir} is not a private directory of this user (owner ${st.uid}, mode ${(st.mode & 0o777).toString(8)})`,
      'remove it (assess creates it again, mode 0700), or point TMPDIR to a directory of your own',
    );
  return dir;
}

/**
 * Takes the lock of the file at `path` (its identity: the inode when it exists, the real path
 * always). `identity`: the device and inode to lock when the caller holds the file open until it
 * releases the lock (fstat of its descriptor); else the file is opened here (read-only, never
 * blocking) and kept open until release. Returns the lock, or the pid of the live process that
 * holds either part of it (then nothing is held).
 */
export function tryFileLock(path: string, identity?: { dev: bigint | number; ino: bigint | number }): LockAttempt {
  const real = realName(path);
  let id = identity;
  let pinned: number | null = null;
  if (!id) {
    try {
      pinned = openSync(real, constants.O_RDONLY | constants.O_NONBLOCK);
      id = fstatSync(pinned, { bigint: true });
    } catch {
      id = undefined; // not there yet (or not ours to open): its name is all it has
    }
  }
  const unpin = () => {
    if (pinned !== null) closeSync(pinned);
    pinned = null;
  };
  const nameLock = `${real}.lock`;
  let inodeLock: string | null = null;
  try {
    const first = tryPidLock(nameLock);
    if (first !== null) {
      unpin();
      return { holder: first };
    }
    if (id) {
      inodeLock = join(lockDir(), `${String(id.dev)}-${String(id.ino)}.lock`);
      const second = tryPidLock(inodeLock);
      if (second !== null) {
        releasePidLock(nameLock);
        unpin();
        return { holder: second };
      }
    }
  } catch (err) {
    releasePidLock(nameLock);
    unpin();
    throw err;
  }
  return {
    lock: {
      path: nameLock,
      release: () => {
        if (inodeLock) releasePidLock(inodeLock);
        releasePidLock(nameLock);
        unpin();
      },
    },
  };
}
