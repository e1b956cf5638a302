// One write transaction per turn of the event loop: the first read or write of a turn begins it
// (BEGIN IMMEDIATE: the state is current and no other process writes until it ends), and it
// commits from setImmediate, after every request handled in that turn has made its changes. A
// route answers once `settled()` resolves, so a 2xx means its change committed, and the requests
// of one turn share one commit. Route handlers are synchronous between their reads and their
// writes, so no other request's changes come in between. Any SQLite failure ends the turn's
// transaction (rolled back): every change of that turn is refused, none is half kept.
// The sandboxes of one process on one file share one of these (state-file.ts): SQLite's busy
// wait blocks the event loop, so two connections of one process would wait for each other.
import type { Store as DbStore } from '../store/db.js';
import { isSqliteError, storeError } from '../store/errors.js';

interface Turn {
  done: Promise<void>;
  resolve(): void;
  reject(err: unknown): void;
  /** Why it was rolled back (the rest of the turn fails with it). */
  failed: unknown;
}

export class TurnTransaction {
  private turn: Turn | null = null;
  /** What a turn read once (the clock, the id counters), shared by the sandboxes on this connection. */
  private readonly kept = new Map<string, unknown>();
  private beforeCommit: Array<() => void> = [];
  /** Changes to the data (not the logs) made through this connection: with data_version, its version. */
  changes = 0;

  constructor(
    readonly store: DbStore,
    /** A reader's turns take no write lock (it never writes): one snapshot each. */
    private readonly begin: 'BEGIN IMMEDIATE' | 'BEGIN' = 'BEGIN IMMEDIATE',
  ) {}

  /** Runs `fn` in this turn's transaction; a SQLite failure rolls the turn back and is thrown. */
  run<T>(fn: () => T): T {
    const turn = this.enter();
    try {
      return fn();
    } catch (err) {
      throw isSqliteError(err) ? this.fail(turn, err) : err;
    }
  }

  /** A value read once per turn (`load` runs in its transaction); forgotten when the next turn begins. */
  once<T>(key: string, load: () => T): T {
    this.enter();
    if (!this.kept.has(key)) this.kept.set(key, this.run(load));
    return this.kept.get(key) as T;
  }

  /** Forgets what once() read under `key` (changed within the turn), or everything (a reset). */
  forget(key?: string): void {
    if (key === undefined) this.kept.clear();
    else this.kept.delete(key);
  }

  /** Runs `fn` in this turn's transaction just before it commits (to write what once() keeps). */
  atCommit(fn: () => void): void {
    this.enter();
    this.beforeCommit.push(fn);
  }

  /** Resolves once the changes made so far have committed (rejects when their turn could not). */
  settled(): Promise<void> {
    return this.turn?.done ?? Promise.resolve();
  }

  /** Commits the open transaction now (at start-up, and before closing): throws when it cannot. */
  finish(): void {
    const failed = this.turn ? this.commit(this.turn) : undefined;
    if (failed) throw failed;
  }

  private enter(): Turn {
    if (this.turn) {
      if (this.turn.failed) throw this.turn.failed;
      return this.turn;
    }
    this.store.guard(() => this.store.db.exec(this.begin)); // IMMEDIATE waits up to the busy timeout
    const turn = newTurn();
    this.turn = turn;
    this.kept.clear();
    this.beforeCommit = [];
    setImmediate(() => this.commit(turn));
    return turn;
  }

  private fail(turn: Turn, err: unknown): unknown {
    turn.failed = storeError(err, this.store.what, this.store.path);
    this.rollback();
    return turn.failed;
  }

  /** Ends the turn's transaction: undefined once committed, else why not (its waiters are told). */
  private commit(turn: Turn): unknown {
    if (this.turn !== turn) return undefined; // finished already
    let failed = turn.failed;
    try {
      if (!failed) for (const fn of this.beforeCommit) fn(); // still in the turn: they write through run()
    } catch (err) {
      failed = err;
    }
    this.turn = null;
    if (!failed)
      try {
        this.store.guard(() => this.store.db.exec('COMMIT'));
      } catch (err) {
        failed = err;
      }
    if (failed) this.rollback();
    if (failed) turn.reject(failed);
    else turn.resolve();
    return failed;
  }

  private rollback(): void {
    try {
      if (this.store.db.isTransaction) this.store.db.exec('ROLLBACK');
    } catch {
      // SQLite rolled it back itself (a full disk, an I/O error)
    }
  }
}

function newTurn(): Turn {
  let resolve!: () => void;
  let reject!: (err: unknown) => void;
  const done = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
  done.catch(() => undefined); // a turn nobody waits for (reads only) must not be an unhandled rejection
  return { done, resolve, reject, failed: null };
}
