// One listener per store: two listeners forwarding the same queue would deliver twice. The lock is
// SQLite's own: an exclusive transaction held open on a small database beside the store
// (`<store>-listener`), which the kernel releases the moment the process ends (kill -9, a power
// cut), so a restarted listener never waits for a stale holder, and a pid that was reused means
// nothing. Who holds it (pid, since, URL) is a row of the store, for the message only.
import { closeSync, openSync, realpathSync } from 'node:fs';
import type { DatabaseSync } from 'node:sqlite';
import { UsageError } from '../../../errors.js';
import type { Store } from '../../../store/db.js';
import { primaryCode, storeError } from '../../../store/errors.js';
import { sqlite } from '../../../store/sqlite.js';
import { utcSeconds } from '../../../util/utc-text.js';

const POLL_MS = 100;

export interface LockOptions {
  /** How long to wait for a listener that is stopping (the store's busy timeout). */
  waitMs: number;
  signal: AbortSignal;
  /** Said once when the lock is held by another listener and this one waits. */
  onWait(holder: string): void;
  now(): Date;
}

export class ListenerLock {
  private constructor(
    private readonly db: DatabaseSync,
    private readonly store: Store,
  ) {}

  /** Takes the store's listener lock, waiting up to `waitMs` for a listener that holds it; exit 2 past that. */
  static async acquire(store: Store, opts: LockOptions): Promise<ListenerLock> {
    const path = `${realpathSync(store.path)}-listener`;
    let db: DatabaseSync;
    try {
      closeSync(openSync(path, 'a', 0o600));
      db = new (sqlite().DatabaseSync)(path);
      db.exec('PRAGMA busy_timeout = 0');
    } catch (err) {
      throw storeError(err, 'the listener lock', path);
    }
    const deadline = Date.now() + opts.waitMs;
    for (let waited = false; ;) {
      if (take(db, path)) break;
      const holder = holderOf(store);
      if (Date.now() >= deadline || opts.signal.aborted) {
        db.close();
        throw new UsageError(
          `cannot use ${store.what} ${store.path}: it is in use by another callbacks listen (${holder})`,
          'stop that listener first, or give this one its own --store',
        );
      }
      if (!waited) opts.onWait(holder);
      waited = true;
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
    const lock = new ListenerLock(db, store);
    store.write((s) =>
      s
        .sql(
          'INSERT INTO callbacks_listener (one, pid, started_ms, url) VALUES (1, ?, ?, ?) ON CONFLICT (one) DO ' +
            'UPDATE SET pid = excluded.pid, started_ms = excluded.started_ms, url = excluded.url',
        )
        .run(process.pid, opts.now().getTime(), ''),
    );
    return lock;
  }

  /** Says where this listener listens (shown to a second one), without the query: no token is kept. */
  describe(url: string): void {
    const bare = url.replace(/\?.*$/, '');
    this.store.write((s) => s.sql('UPDATE callbacks_listener SET url = ? WHERE pid = ?').run(bare, process.pid));
  }

  release(): void {
    try {
      this.store.write((s) => s.sql('DELETE FROM callbacks_listener WHERE pid = ?').run(process.pid));
    } catch {
      // the row is only for messages; the lock below is what counts
    }
    if (this.db.isOpen) this.db.close();
  }
}

function take(db: DatabaseSync, path: string): boolean {
  try {
    db.exec('BEGIN EXCLUSIVE');
    return true;
  } catch (err) {
    if (primaryCode(err) === 5) return false;
    db.close();
    throw storeError(err, 'the listener lock', path);
  }
}

/** `pid 123, listening since …, on URL` from the holder's row (a listener that just started may have none yet). */
function holderOf(store: Store): string {
  const row = store.read((s) => s.sql('SELECT pid, started_ms, url FROM callbacks_listener WHERE one = 1').get());
  if (!row) return 'starting';
  const url = String(row.url);
  return `pid ${String(row.pid)}, since ${utcSeconds(Number(row.started_ms))}${url ? `, on ${url}` : ''}`;
}
