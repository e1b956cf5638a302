// What a failure of SQLite means to the user: the file, the cause and the fix, as a usage error
// (exit 2: a place the CLI cannot keep its records, like a full disk or a read-only directory).
import { statfsSync } from 'node:fs';
import { dirname } from 'node:path';
import { UsageError } from '../errors.js';

/** SQLite's primary result codes the store can meet (https://sqlite.org/rescode.html). */
const CAUSES: Record<number, { cause: string; fix: string }> = {
  3: { cause: 'permission denied', fix: 'fix the permissions of the file and its directory' },
  5: {
    cause: 'it is busy: another assess process held it longer than the busy timeout',
    fix: 'try again once the other run (a bulk run, a listener, mcp) is done, or raise ASSESS_BUSY_TIMEOUT (seconds)',
  },
  6: { cause: 'it is locked by this process', fix: 'this looks like a bug: run the command again' },
  8: { cause: 'the file or its directory is read-only', fix: 'make it writable, or choose another place' },
  10: { cause: 'input/output error', fix: 'check the disk; restore a backup (assess store backup) if it is damaged' },
  11: {
    cause: 'database disk image is malformed',
    fix: 'restore a backup (assess store backup), or move the file away to start anew',
  },
  13: { cause: 'no space left on the device', fix: 'free space there, or choose another place' },
  14: { cause: 'cannot open it (a missing directory, or no permission)', fix: 'check the path and its permissions' },
  26: { cause: 'file is not a database', fix: 'it is no assess store: move it away, or choose another file' },
};

interface SqliteError extends Error {
  code?: string;
  errcode?: number;
  errstr?: string;
}

/** Whether `err` came from SQLite (node:sqlite's ERR_SQLITE_ERROR). */
export function isSqliteError(err: unknown): err is SqliteError {
  return err instanceof Error && (err as SqliteError).code === 'ERR_SQLITE_ERROR';
}

/** SQLite's primary result code of an error (extended codes carry it in their low byte). */
export function primaryCode(err: unknown): number | undefined {
  return isSqliteError(err) && typeof err.errcode === 'number' ? err.errcode & 0xff : undefined;
}

/**
 * A SQLite failure as a usage error naming `what` (`the callbacks inbox`) and the file; any other
 * error is returned as it is. The message is SQLite's own words where we have none of ours.
 */
export function storeError(err: unknown, what: string, path: string): unknown {
  if (!isSqliteError(err)) return err;
  // SQLite reports a full disk met while growing its -shm or -wal file as an I/O error: say which
  const code = primaryCode(err) === 10 && diskFull(path) ? 13 : primaryCode(err);
  const known = CAUSES[code ?? -1];
  const cause = known?.cause ?? err.errstr ?? err.message;
  return new UsageError(`cannot use ${what} ${path}: ${cause}`, known?.fix ?? 'check the file and the disk');
}

/** Whether the file system of `path` has no block left for this user. */
function diskFull(path: string): boolean {
  try {
    return statfsSync(dirname(path)).bavail === 0;
  } catch {
    return false;
  }
}
