// The journal of a bulk command: append-only NDJSON, one line per finished item, keyed by a
// stable item key. A re-run reads it and skips what is in it. Each line is written at once
// (so it survives kill -9 in the page cache) and fsync'd in batches (every BATCH lines or
// INTERVAL_MS) and always on close — a power cut loses at most what was written since the last
// fsync ended (a batch, and the lines written while it ran), and those items are simply sent
// again (the operations are idempotent per item). The batches are fsync'd on libuv's thread
// pool, one at a time: a disk that takes milliseconds to sync must not hold the answers waiting
// in the event loop (a bulk run's next requests).
// A torn last line (kill -9 in the middle of a write) is cut off when the journal is opened.
// A line the disk would not take whole (ENOSPC, a short write) is cut off at once and the
// journal fails for good: the run stops sending (nothing is sent whose outcome it cannot keep).
//
// The lines it holds: src/bulk/journal-lines.ts.
import { createReadStream } from 'node:fs';
import { closeSync, fsync, fsyncSync, ftruncateSync, fstatSync } from 'node:fs';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import { openForAppend } from '../files/output-files.js';
import { asFileError } from '../util/file-errors.js';
import { writeAllSync } from '../util/write-all.js';
import { UsageError } from '../errors.js';
import { tryFileLock, type FileLock } from '../util/file-lock.js';
import { makeDirs } from '../util/private-dir.js';
import { cutTornTail, describeTarget, type JournalEntry, type JournalTarget, type RunRecord } from './journal-lines.js';

export { describeTarget, type JournalEntry, type JournalTarget, type RunRecord } from './journal-lines.js';

/** node:fs's fsync as the journal calls it (a test passes a slow or failing one). */
type FsyncFn = (fd: number, done: (err: NodeJS.ErrnoException | null) => void) => void;

const BATCH = 64;
const INTERVAL_MS = 1000;

export class Journal {
  readonly entries = new Map<string, JournalEntry>();
  lastRun: Record<string, unknown> | null = null;
  /** The service the journal says it was written for (its first `target` line); null when it names none. */
  target: JournalTarget | null = null;
  /** The target to write before the next line (a journal that names none yet, given one on open). */
  private stamp: JournalTarget | null = null;
  /** Given a target, the journal had lines but named none: an older assess wrote them. */
  older = false;
  /** Per key, the earlier attempts that may have e-mailed the candidate (`s` lines less surely refused ones). */
  private readonly mails = new Map<string, number>();
  /** Keys a line names `maybeEmailedTwice` (or with two attempts that may have e-mailed). */
  private readonly twice = new Set<string>();
  /** Files this journal's runs wrote (`wrote` of item and run lines): only those may be replaced. */
  readonly wrote = new Set<string>();
  /** Lines that could not be read (a torn line in the middle means someone edited the file). */
  unreadable = 0;
  private fd: number | null = null;
  /** Bytes in the file: where the next line starts (a line that failed is cut back to here). */
  private size = 0;
  private unsynced = 0;
  private timer: NodeJS.Timeout | null = null;
  /** A background fsync is running; its callback closes the fd if close() came meanwhile. */
  private syncing = false;
  private closeAfterSync: number | null = null;
  /** A background fsync failed: the next write (or close) reports it. */
  private failure: unknown = null;
  private held: FileLock | null = null;

  private constructor(
    readonly path: string,
    private readonly sync: FsyncFn,
    /** Cleans each line before it is written (the run's secrets). */
    private readonly scrub: (line: string) => string = (line) => line,
  ) {}

  /**
   * Opens (creating it if needed), repairs a torn tail, and loads the entries. With a `target`: a
   * journal written for another one is refused (its items were done there, not here); one that
   * names none (new, or written by an older assess) is stamped with it before its next line.
   */
  static async open(
    path: string,
    io: { fsync?: FsyncFn; target?: JournalTarget; scrub?: (line: string) => string } = {},
  ): Promise<Journal> {
    const j = new Journal(path, io.fsync ?? fsync, io.scrub);
    try {
      // Private: a journal holds names, e-mails and test-taking URLs.
      makeDirs(dirname(path));
      j.fd = openForAppend(path, '--journal'); // never through another user's link in /tmp
      // a FIFO (or socket) would take lines until its buffer filled, then hold the run for ever, and
      // is read back empty: refused. A device such as /dev/null (keep no journal) is allowed.
      const st = fstatSync(j.fd);
      if (st.isFIFO() || st.isSocket())
        throw new UsageError(
          `--journal: ${path} is a FIFO or socket, not a file`,
          'a journal is read back by the next run: give a regular file (or /dev/null to keep none)',
        );
      j.lock();
      cutTornTail(j.fd);
      j.size = fstatSync(j.fd).size;
      await j.load();
      if (io.target) j.claim(io.target);
    } catch (err) {
      j.close();
      throw asFileError(
        err,
        'the journal',
        path,
        'choose another --journal, or free space / fix the permissions there',
      );
    }
    return j;
  }

  /**
   * One run per journal: two runs on one journal would both send everything (two e-mails to
   * every candidate). Locked by identity (src/util/file-lock.ts): `<real path>.lock` and the
   * open file's device + inode, so `./j`, `/abs/j`, a symlink and a hard link of `j` are one
   * journal. A lock whose process is gone is taken over.
   */
  private lock(): void {
    const st = fstatSync(this.fd!, { bigint: true });
    if (!st.isFile()) return; // a device or pipe given as the journal: nothing to share
    const got = tryFileLock(this.path, st);
    if (got.holder !== undefined)
      throw new UsageError(
        `the journal ${this.path} is in use by another assess run (pid ${got.holder})`,
        'wait for that run to finish, or give this one its own --journal',
      );
    this.held = got.lock;
  }

  private claim(t: JournalTarget): void {
    if (this.target === null) {
      this.stamp = t;
      this.older = this.size > 0;
    } else if (this.target.target !== t.target || this.target.profile !== t.profile)
      throw new UsageError(
        `the journal ${this.path} was written for ${describeTarget(this.target)}, not ${describeTarget(t)}: what it records as done was done there`,
        `give this run its own journal (--journal NEW.ndjson), or delete ${this.path} if that run does not count`,
      );
  }

  private async load(): Promise<void> {
    if (fstatSync(this.fd!).size === 0) return;
    const lines = createInterface({ input: createReadStream(this.path, { encoding: 'utf8' }), crlfDelay: Infinity });
    for await (const line of lines) {
      if (!line.trim()) continue;
      let v: unknown;
      try {
        v = JSON.parse(line);
      } catch {
        this.unreadable++;
        continue;
      }
      if (v && typeof v === 'object' && typeof (v as JournalEntry).k === 'string') {
        this.entries.set((v as JournalEntry).k, v as JournalEntry);
        this.noteWrote((v as JournalEntry).wrote);
      } else if (v && typeof v === 'object' && typeof (v as JournalTarget).target === 'string') {
        const { target, profile } = v as JournalTarget;
        this.target ??= { target, profile: typeof profile === 'string' ? profile : undefined };
      } else if (v && typeof v === 'object' && (v as RunRecord).run) {
        this.lastRun = (v as RunRecord).run;
        this.noteWrote(this.lastRun.wrote);
      } else if (v && typeof v === 'object' && typeof (v as { s?: unknown }).s === 'string')
        this.noteAttempt((v as { s: string }).s, 1);
      else if (v && typeof v === 'object' && typeof (v as { f?: unknown }).f === 'string') {
        if ((v as { mayHaveSent?: unknown }).mayHaveSent === false) this.noteAttempt((v as { f: string }).f, -1);
      } else {
        this.unreadable++;
        continue;
      }
      // a flag on any line of the key stays (conservative: a second attempt refused afterwards keeps it)
      const rec = v as { k?: string; s?: string; f?: string; maybeEmailedTwice?: unknown };
      const key = rec.k ?? rec.s ?? rec.f;
      if (rec.maybeEmailedTwice === true && typeof key === 'string') this.twice.add(key);
    }
  }

  private noteAttempt(key: string, n: 1 | -1): void {
    const mails = Math.max(0, (this.mails.get(key) ?? 0) + n);
    this.mails.set(key, mails);
    if (mails >= 2) this.twice.add(key);
  }

  /** One name, or several (a run that wrote the summary and index.html). */
  private noteWrote(name: unknown): void {
    for (const n of Array.isArray(name) ? name : [name]) if (typeof n === 'string') this.wrote.add(n);
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }
  get(key: string): JournalEntry | undefined {
    return this.entries.get(key);
  }

  /**
   * Appends a finished item. It is not added to `entries` (what earlier runs finished): a run
   * does not look up its own items, and 50,000 kept entries would cost tens of MB.
   */
  append(entry: JournalEntry): void {
    this.noteWrote(entry.wrote);
    this.writeLine({ ...entry, at: entry.at ?? new Date().toISOString() });
  }

  /**
   * Notes that the item's request is about to be sent (used where a repeat is not harmless, such
   * as an invitation e-mail): if the run dies before its outcome is journaled, the next run
   * knows the item was in flight. True when an earlier attempt may have e-mailed already: this
   * one may be the second e-mail (the line says so).
   */
  markSending(key: string): boolean {
    const again = (this.mails.get(key) ?? 0) > 0;
    this.writeLine(again ? { s: key, maybeEmailedTwice: true } : { s: key });
    return again;
  }

  /**
   * Appends a failed item (a re-run retries it). `mayHaveSent` (invitations with an e-mail): false
   * only when the service surely did not act (it refused the request); then this attempt e-mailed nobody.
   */
  markFailed(key: string, fields: Record<string, unknown>, mayHaveSent?: boolean): void {
    this.writeLine({
      f: key,
      ...(mayHaveSent === undefined ? {} : { mayHaveSent }),
      ...fields,
      at: new Date().toISOString(),
    });
  }

  /** Items an earlier run may have e-mailed without a finished outcome (in flight at a kill, or failed uncertainly). */
  inFlightEarlier(): string[] {
    return [...this.mails].filter(([k, n]) => n > 0 && !this.entries.has(k)).map(([k]) => k);
  }

  /** Whether the journal says the candidate of `key` may have two e-mails. */
  maybeEmailedTwice(key: string): boolean {
    return this.twice.has(key);
  }

  /** Every key the journal says may have two e-mails. */
  emailedTwice(): string[] {
    return [...this.twice];
  }

  recordRun(run: Record<string, unknown>): void {
    this.lastRun = run;
    this.noteWrote(run.wrote);
    this.writeLine({ run });
  }

  private writeLine(v: unknown): void {
    if (this.fd === null) throw new Error(`journal ${this.path} is closed`);
    if (this.failure !== null) throw this.failure;
    if (this.stamp) {
      const t = this.stamp;
      this.stamp = null;
      this.writeLine(t);
      this.target = t;
    }
    try {
      this.size += writeAllSync(this.fd, this.scrub(`${JSON.stringify(v)}\n`));
    } catch (err) {
      try {
        ftruncateSync(this.fd, this.size); // no half line for the next run to stumble on
      } catch {
        // a device or pipe (nothing to cut), or a disk gone: the next open cuts a torn tail
      }
      throw (this.failure = asFileError(
        err,
        'the journal',
        this.path,
        'free space or fix the permissions there, then run the same command again to resume',
      ));
    }
    if (++this.unsynced >= BATCH) this.syncInBackground();
    else this.armTimer();
  }

  private armTimer(): void {
    if (this.timer || this.unsynced === 0) return;
    this.timer = setTimeout(() => this.syncInBackground(), INTERVAL_MS);
    this.timer.unref();
  }

  /** fsync what was appended so far, off the event loop; one at a time (lines written meanwhile wait for the next). */
  private syncInBackground(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.fd === null || this.unsynced === 0 || this.syncing) return;
    this.syncing = true;
    this.unsynced = 0;
    this.sync(this.fd, (err) => {
      this.syncing = false;
      if (err && !cannotSync(err)) this.failure ??= asFileError(err, 'the journal', this.path);
      if (this.closeAfterSync !== null) {
        const fd = this.closeAfterSync;
        this.closeAfterSync = null;
        try {
          closeSync(fd);
        } catch {
          // close() synced everything itself before this: nothing is lost
        }
      } else if (this.unsynced >= BATCH) this.syncInBackground();
      else this.armTimer();
    });
  }

  /** Syncs everything written (at once, on this thread), closes, and frees the lock. */
  close(): void {
    if (this.fd === null) return;
    const fd = this.fd;
    this.fd = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    try {
      if (this.unsynced > 0 || this.syncing) fsyncSync(fd);
      this.unsynced = 0;
    } catch (err) {
      if (!cannotSync(err)) this.failure ??= asFileError(err, 'the journal', this.path);
    } finally {
      // the fd stays open until a running background fsync is done with it
      if (this.syncing) this.closeAfterSync = fd;
      else closeSync(fd);
      this.held?.release();
      this.held = null;
    }
    if (this.failure !== null) throw this.failure;
  }
}

/** EINVAL: a device or a pipe given as the journal (`--journal /dev/null`), which has nothing to sync. */
function cannotSync(err: unknown): boolean {
  return (err as NodeJS.ErrnoException | null)?.code === 'EINVAL';
}
