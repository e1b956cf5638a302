// mkdir -p for assess's own directories: 0700 for what it creates (they hold keys, names, e-mails).
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * mkdir -p (mode 0700 for what it creates); true when it created anything. Node's recursive mkdir
 * answers ENOENT where a directory exists and refuses to hold a new one (a read-only file system):
 * then a plain mkdir below the deepest existing directory gives the real cause (EROFS, EACCES).
 */
export function makeDirs(dir: string): boolean {
  try {
    return mkdirSync(dir, { recursive: true, mode: 0o700 }) !== undefined;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    let first = resolve(dir);
    while (dirname(first) !== first && !existsSync(dirname(first))) first = dirname(first);
    mkdirSync(first, { mode: 0o700 }); // throws the cause
    mkdirSync(dir, { recursive: true, mode: 0o700 }); // it could be made after all
    return true;
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
