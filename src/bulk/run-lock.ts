// One run at a time per journal: two runs of one CSV at once would both send every row (two
// e-mails to every candidate). The lock is SQLite's: a connection to a small file of its own
// holds an exclusive transaction for as long as the run lasts. The kernel releases it when the
// process ends, however it ends (kill -9, a power cut), so a lock is never stale: nothing to take
// over, no process id to check. A lock lies beside the real path of the journal's file (in
// `<file>-locks/`, so a symlink, `./name` and another config dir meet it), named by the file's
// device and inode and the run; the lock files (empty) stay.
import { createHash } from 'node:crypto';
import { closeSync, openSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { makePrivateDir } from '../util/private-dir.js';
import { asFileError } from '../util/file-errors.js';
import { primaryCode, storeError } from '../store/errors.js';
import { sqlite } from '../store/sqlite.js';

const BUSY = 5;

export class RunLock {
  private constructor(private readonly db: DatabaseSync) {}

  /** Takes the lock of run `name` in the store at `storePath`; undefined when another run holds it. */
  static take(storePath: string, name: string): RunLock | undefined {
    let path = '';
    let dir = `${storePath}-locks`;
    try {
      dir = `${realpathSync(storePath)}-locks`;
      const st = statSync(storePath, { bigint: true });
      const id = `${st.dev}:${st.ino}\n${name}`;
      path = join(dir, createHash('sha256').update(id).digest('hex').slice(0, 24));
      makePrivateDir(dir);
      closeSync(openSync(path, 'a', 0o600));
    } catch (err) {
      throw asFileError(err, 'the lock of the journal', path || dir, undefined, 'create');
    }
    let db: DatabaseSync | undefined;
    try {
      db = new (sqlite().DatabaseSync)(path);
      db.exec('PRAGMA busy_timeout = 0');
      db.exec('BEGIN EXCLUSIVE');
      return new RunLock(db);
    } catch (err) {
      db?.close();
      if (primaryCode(err) === BUSY) return undefined;
      throw storeError(err, 'the lock of the journal', path);
    }
  }

  release(): void {
    if (this.db.isOpen) this.db.close(); // closing rolls the empty transaction back: the lock is free
  }
}
