// mkdir -p for assess's own directories: 0700 for what it creates (they hold keys, names, e-mails).
import { chmodSync, mkdirSync } from 'node:fs';

/**
 * Node's recursive mkdir answers ENOENT where the parent exists and refuses (a read-only file
 * system): then one plain mkdir gives the real cause (EROFS, EACCES) for the message.
 */
export function makePrivateDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    mkdirSync(dir, { mode: 0o700 }); // throws the cause, or ENOENT when the parent is missing too
  }
  try {
    chmodSync(dir, 0o700);
  } catch {
    // not our directory to change (e.g. a shared tmp); the files themselves are 0600
  }
}
