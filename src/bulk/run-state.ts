// The journal of a bulk run (invite --from-csv, report export, callbacks process, reconcile's
// re-queues), kept in a store: one row per item, written in a transaction that is on disk before
// the next step, so kill -9 at any moment loses nothing and a re-run skips what is done. A run is
// known by its kind, its name (the CSV, the export directory, the ids) and the service it works
// on (`target`): a rehearsal with --sandbox is a run of its own, whose rows count only there.
//
// What an item's row holds (docs/scripting.md, "What the journal records"):
//   state    done (a re-run skips it), failed (a re-run retries it), sending (an e-mail in flight)
//   mails    the attempts that may have made the service e-mail the candidate: one per invitation
//            sent with an e-mail (`markSending`), less one when it surely did nothing
//   twice    two such attempts: the candidate may have two e-mails (`maybeEmailedTwice`), kept for good
//   entry    what the run recorded: the outcome of a done item, the error of a failed one
import type { Schema, Store } from '../store/db.js';
import { UsageError } from '../errors.js';
import { RunLock } from './run-lock.js';

export const RUNS_SCHEMA: Schema = {
  name: 'runs',
  migrations: [
    `CREATE TABLE run (
      id INTEGER PRIMARY KEY,
      kind TEXT NOT NULL,
      name TEXT NOT NULL,
      target TEXT NOT NULL,
      created_at TEXT NOT NULL,
      held_by TEXT,
      last_run TEXT,
      UNIQUE (kind, name, target)
    ) STRICT;
    CREATE TABLE run_item (
      run INTEGER NOT NULL REFERENCES run (id) ON DELETE CASCADE,
      key TEXT NOT NULL,
      state TEXT NOT NULL,
      mails INTEGER NOT NULL DEFAULT 0,
      twice INTEGER NOT NULL DEFAULT 0,
      entry TEXT,
      seq INTEGER,
      at TEXT NOT NULL,
      PRIMARY KEY (run, key)
    ) STRICT, WITHOUT ROWID;
    CREATE INDEX run_item_order ON run_item (run, seq);
    CREATE TABLE run_file (
      run INTEGER NOT NULL REFERENCES run (id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      PRIMARY KEY (run, name)
    ) STRICT, WITHOUT ROWID;`,
  ],
};

/** A finished item as the run recorded it: its key and outcome fields. */
export interface JournalEntry {
  /** The item key (e.g. `1001|default|ann@example.com`, or an invitation id). */
  k: string;
  at?: string;
  [field: string]: unknown;
}

export interface RunIdentity {
  kind: 'invite' | 'export' | 'process' | 'reconcile';
  /** What the run is of: the CSV, the export directory, the ids ('' when a file of its own is the journal). */
  name: string;
  /** The service (src/store/profile-store.ts: storeTarget). */
  target: string;
}

export class RunState {
  /** Files this journal's runs wrote (an item's or a run's `wrote`): only those may be replaced. */
  readonly wrote = new Set<string>();
  /** The last finished run (`recordRun`), e.g. export's window: `--since-last-run` starts at its `to`. */
  lastRun: Record<string, unknown> | null = null;
  private readonly earlier: string[];

  private constructor(
    readonly store: Store,
    private readonly run: number,
    private readonly now: () => Date,
    private lock: RunLock | undefined,
  ) {
    const r = store.read(() => ({
      last: store.sql('SELECT last_run FROM run WHERE id = ?').get(run),
      files: store.sql('SELECT name FROM run_file WHERE run = ?').all(run),
      // e-mails of earlier runs without a finished outcome (in flight at a kill, or failed uncertainly)
      earlier: store.sql("SELECT key FROM run_item WHERE run = ? AND mails > 0 AND state != 'done'").all(run),
    }));
    this.lastRun = parseObject(r.last?.last_run) ?? null;
    for (const f of r.files) this.wrote.add(String(f.name));
    this.earlier = r.earlier.map((e) => String(e.key));
  }

  /** The path of the file that holds the journal, for messages. */
  get path(): string {
    return this.store.path;
  }

  /**
   * The journal of `who` (made on first use). With `lock`, this run holds it until close(): a
   * second run of the same journal is refused, naming its holder.
   */
  static open(store: Store, who: RunIdentity, opts: { now: () => Date; lock?: boolean }): RunState {
    const key = `${who.kind}\n${who.name}\n${who.target}`;
    const lock = opts.lock ? RunLock.take(store.path, key) : undefined;
    if (opts.lock && !lock) {
      const row = store.read(() =>
        store
          .sql('SELECT held_by FROM run WHERE kind = ? AND name = ? AND target = ?')
          .get(who.kind, who.name, who.target),
      );
      throw new UsageError(
        `the journal of this run (in ${store.path}) is in use by ` +
          `another assess run${row?.held_by ? ` (${String(row.held_by)})` : ''}`,
        'wait for that run to finish, or give this one its own --journal FILE',
      );
    }
    try {
      const at = opts.now().toISOString();
      const id = store.write(() => {
        store
          .sql('INSERT INTO run (kind, name, target, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING')
          .run(who.kind, who.name, who.target, at);
        const row = store
          .sql('SELECT id FROM run WHERE kind = ? AND name = ? AND target = ?')
          .get(who.kind, who.name, who.target);
        if (lock) store.sql('UPDATE run SET held_by = ? WHERE id = ?').run(`pid ${process.pid} since ${at}`, row!.id);
        return Number(row!.id);
      });
      return new RunState(store, id, opts.now, lock);
    } catch (err) {
      lock?.release();
      throw err;
    }
  }

  /** The done entry of an item, if an earlier run finished it. */
  get(key: string): JournalEntry | undefined {
    const row = this.store
      .sql("SELECT entry FROM run_item WHERE run = ? AND key = ? AND state = 'done'")
      .get(this.run, key);
    return row ? entryOf(key, row.entry) : undefined;
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  /** Every done entry, in the order the items were first done. */
  entries(): JournalEntry[] {
    const rows = this.store
      .sql("SELECT key, entry FROM run_item WHERE run = ? AND state = 'done' ORDER BY seq")
      .all(this.run);
    return rows.map((r) => entryOf(String(r.key), r.entry));
  }

  /** Records a finished item (a re-run skips it). */
  append(entry: JournalEntry): void {
    const at = entry.at ?? this.now().toISOString();
    const twice = entry.maybeEmailedTwice === true ? 1 : 0;
    this.store.write(() => {
      this.store
        .sql(
          `INSERT INTO run_item (run, key, state, twice, entry, seq, at) VALUES (?, ?, 'done', ?, ?,
            (SELECT coalesce(max(seq), 0) + 1 FROM run_item WHERE run = ?), ?)
          ON CONFLICT DO UPDATE SET state = 'done', twice = max(twice, excluded.twice), entry = excluded.entry,
            seq = coalesce(seq, excluded.seq), at = excluded.at`,
        )
        .run(this.run, entry.k, twice, JSON.stringify({ ...entry, at }), this.run, at);
      this.noteWrote(entry.wrote);
    });
  }

  /**
   * Notes that the item's request is about to be sent with an e-mail: if the run dies before its
   * outcome is recorded, the next run knows it was in flight. True when an earlier attempt may
   * have e-mailed already: this one may be the second e-mail (the row says so from now on).
   */
  markSending(key: string): boolean {
    const row = this.store.write(() =>
      this.store
        .sql(
          `INSERT INTO run_item (run, key, state, mails, at) VALUES (?, ?, 'sending', 1, ?)
          ON CONFLICT DO UPDATE SET mails = mails + 1, twice = CASE WHEN mails > 0 THEN 1 ELSE twice END,
            state = CASE WHEN state = 'done' THEN 'done' ELSE 'sending' END, at = excluded.at
          RETURNING mails`,
        )
        .get(this.run, key, this.now().toISOString()),
    );
    return Number(row?.mails) > 1;
  }

  /**
   * Records a failed item (a re-run retries it). `mayHaveSent` (invitations with an e-mail): false
   * only when the service surely did not act (it refused the request); then this attempt e-mailed nobody.
   */
  markFailed(key: string, fields: Record<string, unknown>, mayHaveSent?: boolean): void {
    const at = this.now().toISOString();
    const twice = fields.maybeEmailedTwice === true ? 1 : 0;
    this.store.write(() =>
      this.store
        .sql(
          `INSERT INTO run_item (run, key, state, twice, entry, at) VALUES (?, ?, 'failed', ?, ?, ?)
          ON CONFLICT DO UPDATE SET twice = max(twice, excluded.twice), at = excluded.at,
            mails = CASE WHEN ? THEN max(0, mails - 1) ELSE mails END,
            entry = CASE WHEN state = 'done' THEN entry ELSE excluded.entry END,
            state = CASE WHEN state = 'done' THEN 'done' ELSE 'failed' END`,
        )
        .run(this.run, key, twice, JSON.stringify({ k: key, ...fields, at }), at, mayHaveSent === false ? 1 : 0),
    );
  }

  /** Items an earlier run may have e-mailed without a finished outcome (in flight at a kill, or failed uncertainly). */
  inFlightEarlier(): string[] {
    return this.earlier;
  }

  /** Whether the journal says the candidate of `key` may have two e-mails. */
  maybeEmailedTwice(key: string): boolean {
    return this.store.sql('SELECT twice FROM run_item WHERE run = ? AND key = ?').get(this.run, key)?.twice === 1;
  }

  /** Every key the journal says may have two e-mails. */
  emailedTwice(): string[] {
    return this.store
      .sql('SELECT key FROM run_item WHERE run = ? AND twice = 1')
      .all(this.run)
      .map((r) => String(r.key));
  }

  /** Records a whole finished run (export: its window and the files it wrote). */
  recordRun(run: Record<string, unknown>): void {
    this.store.write(() => {
      this.store.sql('UPDATE run SET last_run = ? WHERE id = ?').run(JSON.stringify(run), this.run);
      this.noteWrote(run.wrote);
    });
    this.lastRun = run;
  }

  /** Starts the journal anew: no item done, no file written, no run finished. */
  clear(): void {
    this.store.write(() => {
      this.store.sql('DELETE FROM run_item WHERE run = ?').run(this.run);
      this.store.sql('DELETE FROM run_file WHERE run = ?').run(this.run);
      this.store.sql('UPDATE run SET last_run = NULL WHERE id = ?').run(this.run);
    });
    this.wrote.clear();
    this.lastRun = null;
    this.earlier.length = 0;
  }

  /** Forgets the run (a run that is complete and must not be resumed: callbacks process). */
  forget(): void {
    this.store.write(() => this.store.sql('DELETE FROM run WHERE id = ?').run(this.run));
  }

  /** Frees the lock; what was written is on disk already. */
  close(): void {
    if (!this.lock) return;
    const lock = this.lock;
    this.lock = undefined;
    try {
      this.store.write(() => this.store.sql('UPDATE run SET held_by = NULL WHERE id = ?').run(this.run));
    } catch {
      // the store is gone (a full disk): the note only names the holder, the lock itself is what counts
    } finally {
      lock.release();
    }
  }

  /** One name, or several (a run that wrote the summary and index.html). */
  private noteWrote(name: unknown): void {
    for (const n of Array.isArray(name) ? name : [name])
      if (typeof n === 'string' && !this.wrote.has(n)) {
        this.store.sql('INSERT OR IGNORE INTO run_file (run, name) VALUES (?, ?)').run(this.run, n);
        this.wrote.add(n);
      }
  }
}

function parseObject(text: unknown): Record<string, unknown> | undefined {
  if (typeof text !== 'string') return undefined;
  try {
    const v: unknown = JSON.parse(text);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? { ...v } : undefined;
  } catch {
    return undefined;
  }
}

function entryOf(key: string, text: unknown): JournalEntry {
  return { ...parseObject(text), k: key };
}
