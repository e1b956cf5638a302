// The files a bulk command reads and writes, checked before anything is written: no output may
// be an input or another output (compared by real path and by device + inode, so symlinks and
// hard links count), none may be a directory, and a file system that refuses us is reported
// as the place and the cause (exit 2), never as a bug or as the network. writeTarget is where a
// file written by a rename really goes (src/files/atomic.ts and the PDF download use it).
import { constants, lstatSync, openSync, readlinkSync, realpathSync, statSync, type Stats } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { kindOf } from '../util/small-file.js';

export interface NamedFile {
  /** How the user names it in a message: `--csv`, `--journal`, `the summary`… */
  flag: string;
  path: string;
  /** Inputs are read; outputs are written (the journal is both: list it as an output). */
  role: 'input' | 'output';
  /** Written by a rename into place: an existing target must be a regular file. */
  replaced?: boolean;
}

export { asFileError, causeOf, fileProblem } from '../util/file-errors.js';

interface Identity {
  real: string;
  dev?: number;
  ino?: number;
}

function identify(path: string): Identity {
  const abs = resolve(path);
  try {
    const st = statSync(abs);
    return { real: realpathSync(abs), dev: st.dev, ino: st.ino };
  } catch {
    // Not there yet: the real path of its directory (a symlinked directory counts) + the name.
    try {
      return { real: join(realpathSync(dirname(abs)), basename(abs)) };
    } catch {
      return { real: abs };
    }
  }
}

function same(a: Identity, b: Identity): boolean {
  if (a.real === b.real) return true;
  return a.ino !== undefined && a.dev === b.dev && a.ino === b.ino;
}

/**
 * Exit 2 when an output is an input or another output, or a directory, or (replaced) anything
 * writeTarget refuses. Call before anything is written.
 */
export function checkFiles(files: NamedFile[]): void {
  const ids = files.map((f) => identify(f.path));
  for (let i = 0; i < files.length; i++) {
    const f = files[i]!;
    if (f.role !== 'output') continue;
    for (let j = 0; j < files.length; j++) {
      if (j === i || (files[j]!.role === 'output' && j < i)) continue;
      if (!same(ids[i]!, ids[j]!)) continue;
      const other = files[j]!;
      const link = ids[i]!.real !== resolve(f.path) || ids[j]!.real !== resolve(other.path) ? ' (through a link)' : '';
      throw new UsageError(
        `${f.flag}: ${f.path} is the same file as ${other.flag} ${other.path}${link}; writing it would destroy ` +
          `${other.role === 'input' ? 'the input' : 'the other output'}`,
        `give ${f.flag} a file of its own`,
      );
    }
    if (f.replaced) {
      writeTarget(f.path, f.flag);
      continue;
    }
    let st;
    try {
      st = statSync(resolve(f.path));
    } catch {
      continue; // created later; a missing or unwritable directory is reported when it is opened
    }
    if (st.isDirectory()) throw isDirectory(f.flag, f.path);
  }
}

const isDirectory = (flag: string, path: string) =>
  new UsageError(`${flag}: ${path} is a directory (EISDIR)`, `name a file, e.g. ${flag} ${join(path, 'run.ndjson')}`);

/** Enough for any real chain; a loop of links ends here (the kernel's own limit is 40). */
const MAX_LINKS = 40;

/**
 * The file that a temp file renamed onto `path` must replace: symlinks followed (a dangling one
 * to the name it points at), so a link (`--results link`, a config.json linked into a dotfiles
 * repository) stays a link and its target gets the content. Renamed over anything but a regular
 * file (or a new name) a device, FIFO or socket would be destroyed and a directory fails: exit 2,
 * naming `flag` and the file. So is a path through /proc, whose links (/dev/stdout →
 * /proc/self/fd/1) name open files, not places to write.
 */
export function writeTarget(path: string, flag: string, uid = process.getuid?.()): string {
  const target = followLinks(path, flag, uid);
  if (/^\/proc(\/|$)/.test(target)) throw notAFile(flag, path, target, 'a /proc entry');
  let st: Stats;
  try {
    st = statSync(target);
  } catch {
    return target; // created by the rename; a missing or unwritable directory is reported when it is opened
  }
  if (st.isDirectory()) throw isDirectory(flag, path);
  if (!st.isFile()) throw notAFile(flag, path, target, kindOf(st));
  return target;
}

/**
 * `path` with its symlinks followed (a dangling one to the name it points at), each link and the
 * file it ends at checked as the kernel's protected_symlinks and protected_regular would, which
 * do not apply where we read links ourselves: in a sticky directory others may write (/tmp), a
 * link or an existing file of another user (not the directory's owner) is refused, exit 2 — it
 * would send a journal or results to a place that user chose, or let them read it. `uid`: who
 * writes (another one in tests).
 */
export function followLinks(path: string, flag: string, uid = process.getuid?.()): string {
  let target = resolve(path);
  for (let links = 0; ; links++) {
    target = join(realDir(dirname(target)), basename(target)); // a symlinked directory counts
    if (/^\/proc(\/|$)/.test(target)) return target; // /dev/stdout → /proc/self/fd/1: the caller decides
    refuseForeign(target, path, flag, uid);
    let next: string;
    try {
      next = readlinkSync(target);
    } catch {
      return target; // not a link (EINVAL), or not there yet: this is the name to write
    }
    if (links === MAX_LINKS)
      throw new UsageError(`${flag}: ${path}: too many symbolic links (ELOOP)`, 'name the file itself');
    target = resolve(dirname(target), next);
  }
}

/**
 * Opens an output that is appended to (a journal, an inbox) 'a+', 0600 when created, after
 * followLinks' checks (`uid`: who writes, for tests). A name that was not a link then is opened with O_NOFOLLOW: a
 * link another
 * user plants in between is not followed either (ELOOP).
 */
export function openForAppend(path: string, flag: string, uid = process.getuid?.()): number {
  followLinks(path, flag, uid);
  let linked = false;
  try {
    linked = lstatSync(path).isSymbolicLink();
  } catch {
    // not there yet: created by the open
  }
  const { O_APPEND, O_CREAT, O_RDWR, O_NOFOLLOW } = constants;
  return openSync(path, linked ? 'a+' : O_APPEND | O_CREAT | O_RDWR | (O_NOFOLLOW ?? 0), 0o600);
}

/** Exit 2 when `name` is another user's link or file in a sticky directory anyone may write. */
function refuseForeign(name: string, path: string, flag: string, uid: number | undefined): void {
  if (uid === undefined) return; // Windows: no such directories
  let st: Stats;
  let dir: Stats;
  try {
    st = lstatSync(name);
    dir = statSync(dirname(name));
  } catch {
    return; // not there yet
  }
  if ((dir.mode & 0o1002) !== 0o1002 || st.uid === uid || st.uid === dir.uid) return;
  const what = st.isSymbolicLink() ? 'a symbolic link' : 'a file';
  const via = name === resolve(path) ? '' : ` (reached through ${path})`;
  throw new UsageError(
    `${flag}: ${name}${via} is ${what} of another user (uid ${st.uid}) in the shared directory ` +
      `${dirname(name)}; not written through`,
    `name a file of your own, e.g. in a directory only you can write (${flag} ~/${basename(name)})`,
  );
}

function realDir(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return dir;
  }
}

function notAFile(flag: string, path: string, target: string, kind: string): UsageError {
  const via = target === resolve(path) ? '' : ` (a link to ${target})`;
  return new UsageError(
    `${flag}: ${path}${via} is ${kind}, not a regular file`,
    'name a regular file; it is written to a temporary name and renamed into place',
  );
}
