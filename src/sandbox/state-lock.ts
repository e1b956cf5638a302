// One sandbox per state file. Each sandbox loads the whole state at start and writes the whole
// document back, so two on one file (two `sandbox serve --state F`, or two `assess --sandbox …`
// run at once from a script) would silently drop each other's changes. A lock file beside the
// state, `<state>.lock`, holds the owner's pid; it is created with link(2), which fails when the
// file exists, so exactly one process wins and the file never exists without its pid in it.
// A lock whose process is gone (kill -9, power cut) is stale and taken over.
import { linkSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { SandboxStateError } from './persistence.js';
import { processAlive } from '../util/process-alive.js';

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

const held = new Set<string>();
let exitHookInstalled = false;

/** Takes `<stateFile>.lock`, waiting up to `waitMs` for another live sandbox to release it. */
export async function acquireStateLock(stateFile: string, opts: StateLockOptions = {}): Promise<StateLock> {
  const lockPath = `${stateFile}.lock`;
  await mkdir(dirname(lockPath), { recursive: true });
  const deadline = Date.now() + (opts.waitMs ?? 0);
  let told = false;
  for (;;) {
    const holder = tryLock(lockPath);
    if (holder === null) break;
    if (Date.now() >= deadline) {
      throw new SandboxStateError(
        `Sandbox state file ${stateFile} is in use by another sandbox (pid ${holder}). ` +
          `Stop that one first, or give this one its own --state file.`,
      );
    }
    opts.signal?.throwIfAborted();
    if (!told) opts.onWait?.(holder);
    told = true;
    await new Promise((r) => setTimeout(r, 50));
  }
  held.add(lockPath);
  installExitHook();
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      held.delete(lockPath);
      rmSync(lockPath, { force: true });
    },
  };
}

/** null when the lock is now ours; otherwise the pid of the live process holding it. */
function tryLock(lockPath: string): number | null {
  const temp = join(dirname(lockPath), `.${basename(lockPath)}.${process.pid}.${Math.random().toString(16).slice(2, 10)}`);
  writeFileSync(temp, `${process.pid}\n`, { mode: 0o600 });
  try {
    linkSync(temp, lockPath);
    return null;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    rmSync(temp, { force: true });
  }
  const pid = readPid(lockPath);
  if (pid !== null && (held.has(lockPath) || processAlive(pid))) return pid;
  // Stale (its process is gone) or unreadable: remove it, unless it changed hands meanwhile, and
  // try again; the link above decides who gets it. (Two sandboxes starting in the same few
  // microseconds after a crash could still both pass this check; that is left as it is.)
  if (readPid(lockPath) === pid) rmSync(lockPath, { force: true });
  return tryLock(lockPath);
}

function readPid(lockPath: string): number | null {
  try {
    const pid = Number(readFileSync(lockPath, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null; // removed in between: the retry will see
  }
}


/** A process that exits without closing its sandbox still gives its locks back. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const lockPath of held) rmSync(lockPath, { force: true });
  });
}
