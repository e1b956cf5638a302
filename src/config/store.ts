// Profiles on disk: one JSON file, mode 0600, in a 0700 directory (ASSESS_CONFIG_DIR or the
// platform's config dir). A corrupt file is reported, never replaced.
//
// Writes go through the CLI's one atomic writer (src/files/atomic.ts: temp file 0600, every byte
// checked, fsync, rename) in conf's format (tab-indented JSON), not through `conf` itself: its
// writer retries EACCES/EPERM for seconds and its errors carry no advice. The directory is made
// only when something is written, so a read-only home still runs commands that only read.
// A place that cannot be written is exit 2 naming it, with ASSESS_CONFIG_DIR as the way out.
import { statSync } from 'node:fs';
import { userInfo } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { LocalError, UsageError } from '../errors.js';
import { fileProblem } from '../util/file-errors.js';
import { makePrivateDir } from '../util/private-dir.js';
import type { Profile } from './profile.js';
import { readSmallFileSync, warnIfReadableByOthers } from '../util/small-file.js';

const CONFIG_MAX_BYTES = 1024 * 1024;
/** How long a write waits for another command writing the config. */
const LOCK_WAIT_MS = 10_000;
const DIR_HINT = 'free space or fix the permissions there, or set ASSESS_CONFIG_DIR to a writable directory';

/**
 * The config directory: ASSESS_CONFIG_DIR (a relative one is the user's explicit choice, taken
 * against the working directory), else $XDG_CONFIG_HOME/assess, else ~/.config/assess. A relative
 * XDG_CONFIG_HOME is ignored, as the XDG spec says; an empty or relative HOME falls back to the
 * account's home directory (the password database). A key is never written under the working
 * directory by accident: with no absolute place at all, exit 2 naming ASSESS_CONFIG_DIR. A file
 * where the directory should be is exit 2 saying so (mkdir would only say "it already exists").
 */
/** The names `auth list` shows: the profile in use first when the file does not hold it yet. */
export function shownNames(profiles: Record<string, Profile>, inUse: string): string[] {
  const names = Object.keys(profiles);
  return names.includes(inUse) ? names : [inUse, ...names];
}

export function configDir(
  env: Record<string, string | undefined>,
  accountHome: () => string | undefined = homeOfAccount,
): string {
  if (env.ASSESS_CONFIG_DIR) return refuseFile(env.ASSESS_CONFIG_DIR, true);
  return refuseFile(defaultConfigDir(env, accountHome), false);
}

function defaultConfigDir(env: Record<string, string | undefined>, accountHome: () => string | undefined): string {
  const xdg = env.XDG_CONFIG_HOME;
  if (xdg && isAbsolute(xdg)) return join(xdg, 'assess');
  const fromEnv = env.HOME ?? (process.platform === 'win32' ? env.USERPROFILE : undefined);
  const home = fromEnv && isAbsolute(fromEnv) ? fromEnv : accountHome();
  if (!home || !isAbsolute(home))
    throw new UsageError(
      'cannot tell where the config directory is: HOME is empty or relative and XDG_CONFIG_HOME is unset or relative',
      'set ASSESS_CONFIG_DIR to a directory (e.g. ' +
        'ASSESS_CONFIG_DIR=/path/to/assess-config), or HOME to an absolute path',
    );
  return join(home, '.config', 'assess');
}

/** `dir`, unless a file stands where it or one of its parents should be a directory (exit 2). */
function refuseFile(dir: string, fromVar: boolean): string {
  let problem: string | undefined;
  try {
    if (!statSync(dir).isDirectory()) problem = 'is a file, not a directory';
  } catch (err) {
    // a parent is a file (ENOTDIR: `throwIfNoEntry: false` would hide it on Node ≥ 22); a
    // missing one is made later, and other causes (EACCES…) are reported where it is used
    if ((err as NodeJS.ErrnoException).code === 'ENOTDIR') problem = 'is under a file, not a directory';
  }
  if (!problem) return dir;
  throw new UsageError(
    `${fromVar ? 'ASSESS_CONFIG_DIR: ' : 'the config directory '}${dir} ${problem}`,
    fromVar
      ? 'point ASSESS_CONFIG_DIR at a directory (it is made if missing), or unset it to use the default place'
      : 'move the file aside, or set ASSESS_CONFIG_DIR to a directory',
  );
}

function homeOfAccount(): string | undefined {
  try {
    return userInfo().homedir || undefined;
  } catch {
    return undefined; // no entry for this uid (a container's arbitrary user)
  }
}

export class ConfigStore {
  readonly path: string;

  /** `warn`: told (once per file) when the file holds a key and other users can read it. */
  constructor(
    readonly dir: string,
    private readonly warn: (line: string) => void = () => undefined,
  ) {
    this.path = join(dir, 'config.json');
  }

  /** Makes the directory (0700) for a write; a place that refuses is exit 2 naming it. */
  ensureDir(): void {
    try {
      makePrivateDir(this.dir);
    } catch (err) {
      throw fileProblem(err, 'the config directory', this.dir, DIR_HINT, 'create') ?? err;
    }
  }

  private async read(): Promise<{ profiles: Record<string, Profile> }> {
    // a regular file of at most 1 MiB: a config.json linked to /dev/zero (or a FIFO) is refused,
    // naming the file, instead of being read until memory runs out
    const file = readSmallFileSync(this.path, {
      label: 'config file',
      maxBytes: CONFIG_MAX_BYTES,
      instead: `move it aside (mv ${this.path} ${this.path}.bak) and run 'assess auth login' again`,
    });
    if (!file) return { profiles: {} }; // no file yet: what the schema makes of {}
    let raw: unknown;
    try {
      raw = JSON.parse(file.text);
    } catch (err) {
      throw corrupt(this.path, file.text.trim() ? `not JSON (${(err as Error).message})` : 'it is empty');
    }
    // the file's schema is built only when there is a file to check: a first run, or CI with
    // ASSESS_API_KEY and no config file, never builds it
    const { configFileSchema } = await import('./profile.js');
    const parsed = configFileSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue?.path.length ? `${issue.path.map(String).join('.')}: ` : '';
      throw corrupt(this.path, `${field}${issue?.message ?? 'unexpected content'}`, field !== '');
    }
    const data = parsed.data as { profiles: Record<string, Profile> };
    if (Object.values(data.profiles).some((p) => p.apiKey))
      warnIfReadableByOthers(this.path, file.mode, 'an API key', this.warn);
    return data;
  }

  async profile(name: string): Promise<Profile> {
    return (await this.read()).profiles[name] ?? {};
  }

  async profiles(): Promise<Record<string, Profile>> {
    return (await this.read()).profiles;
  }

  /**
   * Read-modify-write under the config's lock (`config.json.lock`, a pid lock): commands run at
   * once (`auth login … &`) take turns, and each applies its change to the file as the one before
   * left it, so no write is lost. Another writer is waited for up to LOCK_WAIT_MS.
   */
  async update(name: string, change: (p: Profile) => Profile | undefined): Promise<void> {
    await this.read(); // refuses a corrupt file before anything (the directory, the lock) is made
    this.ensureDir();
    const release = await this.lock();
    try {
      const data = await this.read(); // again, under the lock: what another writer just saved
      const next = change({ ...(data.profiles[name] ?? {}) });
      if (next === undefined) delete data.profiles[name];
      else data.profiles[name] = next;
      const { writeFileAtomic } = await import('../files/atomic.js');
      try {
        writeFileAtomic(this.path, `${JSON.stringify(data, undefined, '\t')}\n`, 'the config file');
      } catch (err) {
        const problem = fileProblem(err, 'the config file', this.path, DIR_HINT);
        throw problem ? new UsageError(problem.message, DIR_HINT) : err;
      }
    } finally {
      release();
    }
  }

  /** Takes the config's lock, waiting (bounded) for another writer; gives back its release. */
  private async lock(): Promise<() => void> {
    // pid-lock loads node:crypto: only a write pays for it
    const { tryPidLock, releasePidLock } = await import('../util/pid-lock.js');
    const lockPath = `${this.path}.lock`;
    const deadline = Date.now() + LOCK_WAIT_MS;
    for (;;) {
      let holder: number | null;
      try {
        holder = tryPidLock(lockPath);
      } catch (err) {
        throw fileProblem(err, 'the config lock', lockPath, DIR_HINT) ?? err;
      }
      if (holder === null) return () => releasePidLock(lockPath);
      if (Date.now() >= deadline)
        throw new LocalError(
          `the config file ${this.path} is being changed by another assess command (pid ` +
            `${holder}); waited ${LOCK_WAIT_MS / 1000} s`,
          `run this again when it has finished (if no assess command runs, remove ${lockPath})`,
        );
      await new Promise((r) => setTimeout(r, 20 + Math.random() * 30));
    }
  }
}

/**
 * A config file that cannot be used: exit 2 (a local file that cannot be read), naming the file, the field and the fix.
 */
function corrupt(path: string, why: string, field = false): UsageError {
  return new UsageError(
    `config file ${path} cannot be read: ${why}`,
    `${field ? 'fix that field by hand' : 'fix it by hand'}, or move it aside (mv ${path} ${path}.bak) and run ` +
      `'assess auth login' again`,
  );
}
