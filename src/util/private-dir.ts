// mkdir -p for assess's own directories: 0700 for what it creates (they hold keys, names, e-mails).
// The one way assess creates directories: never Node's recursive mkdir, which loops for ever on
// a path it cannot make under /proc (mkdir answers ENOENT there while the parent exists, and Node
// makes the parent and tries again, at 100% CPU, deaf to Ctrl-C), and answers ENOENT where a
// read-only file system refuses a new directory.
import { chmodSync, lstatSync, mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * mkdir -p (mode 0700 for what it creates), one level at a time: up from `dir` to the first
 * ancestor that exists, then a plain mkdir of each level below it (Node's recursive mkdir loops
 * for ever under /proc). A level that cannot be made throws its own error (EACCES, EROFS,
 * ENOENT, ENOTDIR…, with its path); the loops are bounded by the depth of the path. True when it
 * created `dir`.
 */
export function makeDirs(dir: string, mode = 0o700): boolean {
  const missing: string[] = [];
  let at = resolve(dir);
  for (; !statOf(at) && dirname(at) !== at; at = dirname(at)) missing.push(at);
  if (missing.length === 0 && !statOf(at)?.isDirectory()) missing.push(at); // a file in the way: mkdir says so (EEXIST)
  let created = false;
  for (const level of missing.reverse()) {
    try {
      mkdirSync(level, { mode });
      created = true;
    } catch (err) {
      // made meanwhile (another run): fine if it is a directory
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || !statOf(level)?.isDirectory()) throw err;
    }
  }
  return created;
}

/** What is at `path` (a symlink followed), or undefined: missing, or not reachable (ENOTDIR, EACCES). */
function statOf(path: string) {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/**
 * makeDirs, and a directory it created made exactly 0700 (the umask may have taken bits off). An
 * existing directory's mode is left alone: the user chose it (docs/assumptions.md).
 */
export function makePrivateDir(dir: string): void {
  if (!makeDirs(dir)) return;
  try {
    chmodSync(dir, 0o700);
  } catch {
    // not ours to change after all; the files themselves are 0600
  }
}

/**
 * Why `dir` is not a directory of this user's that nobody else can change (a symlink, another
 * user's, writable by group or others; with `mode`, any mode but that one), or undefined.
 */
export function privateDirProblem(dir: string, mode?: number, uid = process.getuid?.()): string | undefined {
  const st = lstatSync(dir);
  const bits = st.mode & 0o777;
  if (!st.isDirectory()) return `${dir} is ${st.isSymbolicLink() ? 'a symbolic link' : 'not a directory'}`;
  if (uid !== undefined && st.uid !== uid) return `${dir} belongs to another user (uid ${st.uid})`;
  if (process.platform === 'win32') return undefined;
  if (mode !== undefined ? bits === mode : (bits & 0o022) === 0) return undefined;
  const why = mode !== undefined ? `, not 0${mode.toString(8)}` : ': others may change it';
  return `${dir} has mode 0${bits.toString(8)}${why}`;
}
