// The files a bulk command reads and writes, checked before anything is written: no output may
// be an input or another output (compared by real path and by device + inode, so symlinks and
// hard links count), none may be a directory, and a file system that refuses us is reported
// as the place and the cause (exit 2), never as a bug or as the network.
import { lstatSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { UsageError } from '../errors.js';

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
 * Exit 2 when an output is an input or another output, or a directory, or (replaced) a device
 * or FIFO that a rename would destroy. Call before anything is written.
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
        `${f.flag}: ${f.path} is the same file as ${other.flag} ${other.path}${link}; writing it would destroy ${other.role === 'input' ? 'the input' : 'the other output'}`,
        `give ${f.flag} a file of its own`,
      );
    }
    let st;
    try {
      st = lstatSync(resolve(f.path));
    } catch {
      continue; // created later; a missing or unwritable directory is reported when it is opened
    }
    if (st.isSymbolicLink()) {
      try {
        st = statSync(resolve(f.path));
      } catch {
        continue;
      }
    }
    if (st.isDirectory()) throw new UsageError(`${f.flag}: ${f.path} is a directory (EISDIR)`, `name a file, e.g. ${f.flag} ${join(f.path, 'run.ndjson')}`);
    if (f.replaced && !st.isFile())
      throw new UsageError(`${f.flag}: ${f.path} is not a regular file`, `name a regular file; it is written to a temporary name and renamed into place`);
  }
}
