// One sandbox per state file. Each sandbox loads the whole state at start and writes the whole
// document back, so two on one file (two `sandbox serve --state F`, or two `assess --sandbox …`
// run at once from a script) would silently drop each other's changes. A lock file beside the
// state, `<state>.lock`, holds the owner's pid; it is created with link(2), which fails when the
// file exists, so exactly one process wins and the file never exists without its pid in it.
// A lock whose process is gone (kill -9, power cut) is stale and taken over (src/util/pid-lock.ts).
// The lock is by identity (src/util/file-lock.ts): the lock beside the state is named after its
// real path (a symlink, `./s` and `/abs/s` are one state), and an existing state's inode is
// locked too (a hard link of it is the same state). A snapshot replaces the file (a new inode), so a
// hard link made after that is a copy of the state, no longer the same file.
import { dirname } from 'node:path';
import { SandboxStateError } from './persistence.js';
import { tryFileLock, type FileLock } from '../util/file-lock.js';
import { makeDirs } from '../util/private-dir.js';

export interface StateLockOptions {
  /** How long to wait for another sandbox to let go (0 = fail at once, the default). */
  waitMs?: number;
  /** Told once when the state is in use and we start waiting. */
  onWait?: (holderPid: number) => void;
  /** Stops the wait (Ctrl-C): the abort reason is thrown. */
  signal?: AbortSignal;
}

export interface StateLock {
  release(): void;
}

/** Takes `<stateFile>.lock`, waiting up to `waitMs` for another live sandbox to release it. */
export async function acquireStateLock(stateFile: string, opts: StateLockOptions = {}): Promise<StateLock> {
  makeDirs(dirname(stateFile), 0o777);
  const deadline = Date.now() + (opts.waitMs ?? 0);
  let told = false;
  let lock: FileLock;
  for (;;) {
    const got = tryFileLock(stateFile);
    if (got.lock) {
      lock = got.lock;
      break;
    }
    const holder = got.holder;
    if (Date.now() >= deadline) {
      throw new SandboxStateError(
        `Sandbox state file ${stateFile} is in use by another sandbox (pid ${holder}). ` +
          `Stop that one first, or give this one its own --state file.`,
        true,
      );
    }
    opts.signal?.throwIfAborted();
    if (!told) opts.onWait?.(holder);
    told = true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return { release: () => lock.release() };
}
