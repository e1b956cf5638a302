// The statements of the sandbox's state, each in the transaction of the current turn of the
// event loop (turn-tx.ts), and the turn's commit: what Store's lookups and changes are made of.
import type { Store as DbStore } from '../store/db.js';
import type { TurnTransaction } from './turn-tx.js';

/** The connection a sandbox uses: shared by the sandboxes of one process on one file (state-file.ts). */
export interface StateConnection {
  tx: TurnTransaction;
  /** Done with it: commits what is open, and closes the database when no other sandbox uses it. */
  release(): void;
}

export type Param = string | number | null;
export type Row = Record<string, unknown>;

export class StateStatements {
  readonly db: DbStore;
  protected readonly tx: TurnTransaction;

  constructor(private readonly conn: StateConnection) {
    this.tx = conn.tx;
    this.db = conn.tx.store;
  }

  row(sql: string, ...params: Param[]): Row | undefined {
    return this.tx.run(() => this.db.sql(sql).get(...params));
  }
  rows(sql: string, ...params: Param[]): Row[] {
    return this.tx.run(() => this.db.sql(sql).all(...params));
  }
  /** Runs a change; returns how many rows it changed and the rowid of the last row it added. */
  exec(sql: string, ...params: Param[]): { changes: number; rowid: number } {
    const r = this.tx.run(() => this.db.sql(sql).run(...params));
    return { changes: Number(r.changes), rowid: Number(r.lastInsertRowid) };
  }
  /** A value read once per turn of the event loop (forget() it when it changes). */
  once<T>(key: string, load: () => T): T {
    return this.tx.once(key, load);
  }
  forget(key: string): void {
    this.tx.forget(key);
  }
  /** Reads outside any transaction when none is open (a poll must not hold the write lock). */
  peek(sql: string, ...params: Param[]): Row[] {
    return this.db.guard(() => this.db.sql(sql).all(...params));
  }

  /** Resolves once every change made so far has committed: a route answers after it. */
  flush(): Promise<void> {
    return this.tx.settled();
  }

  /** Commits the changes made so far now; throws when they cannot be (a full disk, a read-only file). */
  commitNow(): void {
    this.tx.finish();
  }

  /** Commits what is open and lets go of the database (closed with the last sandbox of this process on it). */
  close(): void {
    this.conn.release();
  }

  /** Changes to the data (this process's and others'): caches of derived output key on it. */
  get mutations(): string {
    const v = this.row('PRAGMA data_version')!;
    return `${String(Object.values(v)[0])}.${this.tx.changes}`;
  }
}
