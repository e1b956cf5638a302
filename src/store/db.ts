// The embedded database of everything assess keeps over time (node:sqlite, WAL). SQLite does the
// locking (several processes of one profile work at once, waiting up to the busy timeout) and the
// durability (a write transaction is on disk when write() returns: synchronous=FULL).
//
// Each part of the CLI that keeps records declares its own schema (a name and its migrations), so
// the parts evolve apart in one file; `assess_schema` holds each part's version. A file whose
// version of a part is newer than this assess knows is refused, never half-read.
import { closeSync, lstatSync, openSync, statSync, type Stats } from 'node:fs';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { dirname } from 'node:path';
import { UsageError } from '../errors.js';
import { makePrivateDir } from '../util/private-dir.js';
import { asFileError } from '../util/file-errors.js';
import { storeError } from './errors.js';
import { sqlite } from './sqlite.js';

/** One part's tables: its migrations in order, each a script run once, in its own transaction. */
export interface Schema {
  readonly name: string;
  readonly migrations: readonly string[];
}

export interface OpenOptions {
  /** What the file holds, in messages: `the callbacks inbox`, `the sandbox state`. */
  what: string;
  /** Milliseconds to wait for another process's write (default ASSESS_BUSY_TIMEOUT seconds, else 10 s). */
  busyTimeoutMs?: number;
  env?: Record<string, string | undefined>;
  /**
   * `NORMAL`: a commit survives the process being killed, not a power cut (WAL without an fsync
   * per commit). For the sandbox's state, an emulator's; what the CLI keeps stays `FULL`.
   */
  synchronous?: 'FULL' | 'NORMAL';
  /** The file holds these schemas only: one with other parts (a profile's store) is refused. */
  sole?: boolean;
  /** Cleans every text a statement writes (the run's secrets: a service may echo them). */
  scrub?: (text: string) => string;
}

/** The path of a database in memory (for state that is kept nowhere, e.g. a test's sandbox). */
export const MEMORY = ':memory:';
/** Marks a file as an assess store (`PRAGMA application_id`): 'asss'. */
export const APPLICATION_ID = 0x61737373;
const DEFAULT_BUSY_MS = 10_000;

export class Store {
  private readonly statements = new Map<string, StatementSync>();

  private constructor(
    readonly path: string,
    readonly what: string,
    readonly db: DatabaseSync,
    private readonly scrub?: (text: string) => string,
  ) {}

  /**
   * Opens (creating it 0600, its directory 0700; MEMORY: in memory) and brings each schema up to date. Every failure
   * is a usage error naming the file, the cause and the fix (src/store/errors.ts).
   */
  static open(path: string, schemas: readonly Schema[], opts: OpenOptions): Store {
    if (path !== MEMORY) createPrivately(path, opts.what);
    let db: DatabaseSync | undefined;
    try {
      db = new (sqlite().DatabaseSync)(path);
      const store = new Store(path, opts.what, db, opts.scrub);
      store.configure(busyTimeout(opts), opts.synchronous ?? 'FULL');
      store.migrate(schemas, opts.sole ?? false);
      return store;
    } catch (err) {
      db?.close();
      throw storeError(err, opts.what, path);
    }
  }

  /** Runs `fn` in a write transaction (BEGIN IMMEDIATE: waits for other writers), or in the one open. */
  write<T>(fn: (store: Store) => T): T {
    return this.transaction('BEGIN IMMEDIATE', fn);
  }

  /** Runs `fn` on one consistent snapshot of the file. */
  read<T>(fn: (store: Store) => T): T {
    return this.transaction('BEGIN', fn);
  }

  /** A prepared statement, prepared once per store. */
  sql(text: string): StatementSync {
    let s = this.statements.get(text);
    if (!s) {
      s = this.guard(() => this.db.prepare(text));
      if (this.scrub) scrubWrites(s, this.scrub);
      this.statements.set(text, s);
    }
    return s;
  }

  /** `PRAGMA integrity_check`: 'ok', or SQLite's list of problems. */
  check(): string[] {
    const rows = this.guard(() => this.db.prepare('PRAGMA integrity_check').all());
    return rows.map((r) => String(Object.values(r)[0]));
  }

  /** A consistent copy into a new file (`VACUUM INTO`), also while others write. */
  backup(to: string): void {
    this.guard(() => this.db.prepare('VACUUM INTO ?').run(to));
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
  }

  /** Runs `fn`, turning a SQLite failure into the usage error naming this file. */
  guard<T>(fn: () => T): T {
    try {
      return fn();
    } catch (err) {
      throw storeError(err, this.what, this.path);
    }
  }

  private transaction<T>(begin: string, fn: (store: Store) => T): T {
    // inside another transaction, part of it: what one step writes in several parts commits at once
    if (this.db.isTransaction) return fn(this);
    this.guard(() => this.db.exec(begin));
    try {
      const out = fn(this);
      this.guard(() => this.db.exec('COMMIT'));
      return out;
    } catch (err) {
      try {
        if (this.db.isTransaction) this.db.exec('ROLLBACK');
      } catch {
        // SQLite rolled it back itself (a full disk, an I/O error): the first error is the one to report
      }
      throw storeError(err, this.what, this.path);
    }
  }

  private configure(busyMs: number, synchronous: 'FULL' | 'NORMAL'): void {
    this.db.exec(`PRAGMA busy_timeout = ${busyMs}`);
    const { application_id: id } = this.db.prepare('PRAGMA application_id').get() as { application_id: number };
    if (id !== 0 && id !== APPLICATION_ID) throw foreign(this);
    const mode = this.db.prepare('PRAGMA journal_mode = WAL').get() as { journal_mode: string };
    if (mode.journal_mode !== 'wal' && this.path !== MEMORY)
      throw new UsageError(`cannot use ${this.what} ${this.path}: WAL is not possible there`);
    this.db.exec(`PRAGMA synchronous = ${synchronous}; PRAGMA foreign_keys = ON`);
  }

  private migrate(schemas: readonly Schema[], sole: boolean): void {
    // the common case, every part up to date, takes no write lock (another process may hold it)
    if (this.read(() => schemas.every((s) => this.versionOf(s) === s.migrations.length))) return;
    this.write(() => {
      const tables = this.db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").all();
      const names = new Set(tables.map((t) => String(t.name)));
      if (!names.has('assess_schema')) {
        if (names.size > 0) throw foreign(this);
        this.db.exec('CREATE TABLE assess_schema (part TEXT PRIMARY KEY, version INTEGER NOT NULL) STRICT');
        this.db.exec(`PRAGMA application_id = ${APPLICATION_ID}`);
      } else if (sole) this.refuseOtherParts(schemas);
      for (const schema of schemas) this.migrateOne(schema);
    });
  }

  private refuseOtherParts(schemas: readonly Schema[]): void {
    const ours = new Set(schemas.map((s) => s.name));
    const other = this.db
      .prepare('SELECT part FROM assess_schema')
      .all()
      .find((r) => !ours.has(String(r.part)));
    if (other)
      throw new UsageError(
        `cannot use ${this.what} ${this.path}: it is another assess store (it holds ${String(other.part)})`,
        'choose another file; this one is left as it is',
      );
  }

  /** The version of a part in the file: 0 when absent (also when the file is new). */
  private versionOf(schema: Schema): number {
    const known = this.db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'assess_schema'").get();
    if (!known) return 0;
    const row = this.db.prepare('SELECT version FROM assess_schema WHERE part = ?').get(schema.name);
    return row ? Number(row.version) : 0;
  }

  private migrateOne(schema: Schema): void {
    const at = this.versionOf(schema);
    if (at > schema.migrations.length)
      throw new UsageError(
        `cannot use ${this.what} ${this.path}: a newer assess made it (${schema.name} schema ${at}, this one knows ` +
          `${schema.migrations.length})`,
        'upgrade assess, or point this one at another file',
      );
    for (let v = at; v < schema.migrations.length; v++) this.db.exec(schema.migrations[v]!);
    if (at < schema.migrations.length)
      this.db
        .prepare('INSERT INTO assess_schema (part, version) VALUES (?, ?) ON CONFLICT (part) DO UPDATE SET version = ?')
        .run(schema.name, schema.migrations.length, schema.migrations.length);
  }
}

function foreign(store: Store): UsageError {
  return new UsageError(
    `cannot use ${store.what} ${store.path}: it is a SQLite database of another program`,
    'choose another file; this one is left as it is',
  );
}

function busyTimeout(opts: OpenOptions): number {
  if (opts.busyTimeoutMs !== undefined) return opts.busyTimeoutMs;
  const secs = Number(opts.env?.ASSESS_BUSY_TIMEOUT);
  return Number.isFinite(secs) && secs >= 0 ? Math.round(secs * 1000) : DEFAULT_BUSY_MS;
}

/**
 * The file made 0600 before SQLite opens it (SQLite gives its -wal and -shm files the same mode),
 * in a 0700 directory; one that exists must be a regular file of this user's.
 */
function createPrivately(path: string, what: string): void {
  try {
    // SQLite opens the -wal and -shm files beside it too: a FIFO there would hang the open
    for (const side of [`${path}-wal`, `${path}-shm`]) {
      const odd = existing(side);
      if (odd) refuseOdd(odd, side, what);
    }
    const st = existing(path);
    if (st) return refuseOdd(st, path, what);
    makePrivateDir(dirname(path));
    closeSync(openSync(path, 'a', 0o600));
  } catch (err) {
    throw asFileError(err, what, path, undefined, 'create');
  }
}

function existing(path: string): Stats | undefined {
  try {
    const st = lstatSync(path);
    return st.isSymbolicLink() ? statSync(path) : st;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

function refuseOdd(st: Stats, path: string, what: string): void {
  if (!st.isFile())
    throw new UsageError(`cannot use ${what} ${path}: not a regular file`, 'give the path of a regular file');
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid)
    throw new UsageError(`cannot use ${what} ${path}: it belongs to another user`, 'choose a file of your own');
}

/** Every string a statement's `run` binds goes through `scrub` first (reads are left alone). */
function scrubWrites(s: StatementSync, scrub: (text: string) => string): void {
  const run = s.run.bind(s);
  const clean = (v: unknown) => (typeof v === 'string' ? scrub(v) : v);
  s.run = ((...args: Parameters<StatementSync['run']>) =>
    run(...(args.map(clean) as Parameters<StatementSync['run']>))) as StatementSync['run'];
}
