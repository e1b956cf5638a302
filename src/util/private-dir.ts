// mkdir -p for assess's own directories: 0700 for what it creates (they hold keys, names, e-mails).
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * mkdir -p (mode 0700 for what it creates). Node's recursive mkdir answers ENOENT where a
 * directory exists and refuses to hold a new one (a read-only file system): then a plain mkdir
 * below the deepest existing directory gives the real cause (EROFS, EACCES) for the message.
 */
export function makeDirs(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    let first = resolve(dir);
    while (dirname(first) !== first && !existsSync(dirname(first))) first = dirname(first);
    mkdirSync(first, { mode: 0o700 }); // throws the cause
    mkdirSync(dir, { recursive: true, mode: 0o700 }); // it could be made after all
  }
}

/** makeDirs, and the directory itself made 0700 when it is ours to change. */
export function makePrivateDir(dir: string): void {
  makeDirs(dir);
  try {
    chmodSync(dir, 0o700);
  } catch {
    // not our directory to change (e.g. a shared tmp); the files themselves are 0600
  }
}
