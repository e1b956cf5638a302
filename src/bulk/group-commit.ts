// Group commit for a bulk run's rows: the writes its workers ask for in one turn of the event loop
// go into one transaction per store. SQLite's commits are synchronous (they hold the event loop),
// and a disk under load syncs a few hundred times a second, so a commit of every row with
// synchronous=FULL would bound a run to that many rows a second. Here a commit waits for the disk
// (FULL) at most once a second; the others (NORMAL, in WAL mode) are in the file before they are
// acknowledged, so kill -9 loses nothing, and a power cut at most the last second of rows: the
// promise the NDJSON journals made (fsync'd every second), with the file never torn.
import type { Store } from '../store/db.js';

interface Op {
  store: Store;
  write: () => void;
  done: (err?: unknown) => void;
}

const FULL_EVERY_MS = 1000;

export class GroupCommit {
  private pending: Op[] = [];
  private scheduled = false;
  private readonly lastFull = new Map<Store, number>();

  /** Resolves once `write` (statements on `store`, in its transaction) is committed. */
  run(store: Store, write: () => void): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ store, write, done: (err) => (err === undefined ? resolve() : reject(err)) });
      if (this.scheduled) return;
      this.scheduled = true;
      setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    this.scheduled = false;
    const ops = this.pending;
    this.pending = [];
    for (const store of new Set(ops.map((o) => o.store))) {
      const mine = ops.filter((o) => o.store === store);
      try {
        this.commit(store, () => {
          for (const o of mine) o.write();
        });
        for (const o of mine) o.done();
      } catch (err) {
        for (const o of mine) o.done(err); // a failed commit is every one's failure: none of them is in the file
      }
    }
  }

  /** One transaction, waiting for the disk when the last that did is a second old (all before it are synced too). */
  private commit(store: Store, write: () => void): void {
    const now = performance.now();
    const full = now - (this.lastFull.get(store) ?? -Infinity) >= FULL_EVERY_MS;
    if (full) this.lastFull.set(store, now);
    else store.guard(() => store.db.exec('PRAGMA synchronous = NORMAL'));
    try {
      store.write(write);
    } finally {
      // every other write on the store stays as the store promises: on disk when it returns
      if (!full) store.guard(() => store.db.exec('PRAGMA synchronous = FULL'));
    }
  }
}
