// Writes a --state sandbox's changes: each commit appends one line to `<state>.log` (written
// before it resolves, so before the requests it covers are answered); when the log has grown as
// large as the snapshot (and at least `compactAfterBytes`), the commit writes a new snapshot
// instead (whole state: temp file, fsync, rename, fsync of the directory) and only then empties
// the log. The cost of a commit is then the size of what changed, not of the whole state, and
// the snapshots' total cost stays proportional to the log's. A failed write leaves the changes it
// carried in memory only: the next commit writes a snapshot, which holds everything.
import { rm } from 'node:fs/promises';
import type { Delivery, SandboxInvitation, SandboxLink, SandboxTest } from './model.js';
import { writeFileAtomic, type LoadedState } from './persistence.js';
import { LogAppender, logPathOf, type LogRecord } from './state-log.js';
import type { Store } from './store.js';

/** The log is folded into a snapshot once it is this large and as large as the last snapshot. */
export const COMPACT_AFTER_BYTES = 4 * 1024 * 1024;

/** What a change touched: the log holds these objects whole ('all': write a whole snapshot). */
export type Touched =
  | { invitation: SandboxInvitation }
  | { link: SandboxLink }
  | { test: SandboxTest }
  | { settingsOf: number }
  | { delivery: Delivery }
  | { droppedDelivery: number }
  | 'clock'
  | 'all';

/** What changed since the last commit (filled by the Store's change methods). */
export class ChangeSet {
  /** Write a whole snapshot next (reset, request log cleared, a failed write, a new file). */
  full = false;
  readonly invitations = new Set<number>();
  readonly links = new Set<number>();
  readonly tests = new Set<number>();
  readonly settings = new Set<number>();
  readonly deliveries = new Set<Delivery>();
  readonly droppedDeliveries = new Set<number>();
  /** Requests recorded since the last commit (the log keeps the last ones of them). */
  requests = 0;
  /** store.outbox[0 .. outboxLogged) is written; the outbox only grows (reset is a snapshot). */
  outboxLogged = 0;
  /** Callback queue entries up to this event id are written. */
  lastEventLogged = 0;

  note(what: Touched[]): void {
    for (const t of what) {
      if (t === 'all') this.full = true;
      else if (t === 'clock')
        continue; // every log line carries the clock and the id counters
      else if ('invitation' in t) this.invitations.add(t.invitation.testInvitationId);
      else if ('link' in t) this.links.add(t.link.testLinkId);
      else if ('test' in t) this.tests.add(t.test.testId);
      else if ('settingsOf' in t) this.settings.add(t.settingsOf);
      else if ('delivery' in t) this.deliveries.add(t.delivery);
      else this.droppedDeliveries.add(t.droppedDelivery);
    }
  }

  clear(store: Store): void {
    this.full = false;
    for (const set of [
      this.invitations,
      this.links,
      this.tests,
      this.settings,
      this.deliveries,
      this.droppedDeliveries,
    ])
      set.clear();
    this.requests = 0;
    this.outboxLogged = store.outbox.length;
    this.lastEventLogged = store.callbackQueue.at(-1)?.eventId ?? 0;
  }
}

export class StateWriter {
  private constructor(
    private readonly file: string,
    private readonly log: LogAppender,
    private seq: number,
    private snapshotBytes: number,
    private readonly compactAfterBytes: number,
  ) {}

  /** Opens the log of `file` for appending (cutting off a torn last line). */
  static async open(
    file: string,
    loaded: LoadedState | null,
    compactAfterBytes = COMPACT_AFTER_BYTES,
  ): Promise<StateWriter> {
    // no snapshot: a log left beside it belongs to a state that was deleted; it is emptied
    const log = LogAppender.open(logPathOf(file), loaded?.logBytes ?? 0);
    return new StateWriter(file, log, loaded?.doc.logSeq ?? 0, loaded?.snapshotBytes ?? 0, compactAfterBytes);
  }

  /** Writes what changed (a log line or a snapshot); resolves once it is durable. */
  commit(store: Store): Promise<void> {
    const changes = store.changes;
    const compact = this.log.bytes > 0 && this.log.bytes >= Math.max(this.compactAfterBytes, this.snapshotBytes);
    if (changes.full || compact) return this.snapshot(store);
    const record = buildRecord(store, changes, this.seq + 1);
    changes.clear(store);
    this.seq = record.n;
    try {
      this.log.append(`${JSON.stringify(record)}\n`);
    } catch (err) {
      store.changes.full = true; // what this line carried is written by the next commit's snapshot
      return Promise.reject(err as Error);
    }
    return Promise.resolve();
  }

  /** The whole state, atomically, then the log emptied; the snapshot names the last line it includes. */
  async snapshot(store: Store): Promise<void> {
    const text = JSON.stringify({ ...store.toDoc(), logSeq: this.seq });
    store.changes.clear(store);
    try {
      await writeFileAtomic(this.file, text);
      this.snapshotBytes = text.length;
      if (this.log.bytes > 0 || this.log.damaged) this.log.clear();
    } catch (err) {
      store.changes.full = true;
      throw err;
    }
  }

  /** After a clean stop the state file alone is the whole state: a last snapshot, the log removed. */
  async close(store: Store): Promise<void> {
    try {
      if (this.log.bytes > 0) await this.snapshot(store);
    } finally {
      this.log.close();
    }
    await rm(logPathOf(this.file), { force: true });
  }
}

function buildRecord(store: Store, c: ChangeSet, n: number): LogRecord {
  const r: LogRecord = { n, clock: [store.clock.offset, store.clock.frozenAt], nextIds: { ...store.nextIds } };
  const pick = <K, V>(ids: Set<K>, map: Map<K, V>) => [...ids].flatMap((id) => map.get(id) ?? []);
  if (c.invitations.size) r.inv = pick(c.invitations, store.invitations);
  if (c.links.size) r.links = pick(c.links, store.links);
  if (c.tests.size) r.tests = pick(c.tests, store.tests);
  if (c.settings.size)
    r.settings = [...c.settings].flatMap((testId) =>
      store.settings.has(testId) ? [{ testId, settings: store.settings.get(testId)! }] : [],
    );
  if (c.deliveries.size) r.dlv = [...c.deliveries].filter((d) => !c.droppedDeliveries.has(d.deliveryId));
  if (c.droppedDeliveries.size) r.dlvDrop = [...c.droppedDeliveries];
  if (store.outbox.length > c.outboxLogged) r.outbox = store.outbox.slice(c.outboxLogged);
  const queue = store.callbackQueue;
  let from = queue.length;
  while (from > 0 && queue[from - 1]!.eventId > c.lastEventLogged) from--;
  if (from < queue.length) r.cbq = queue.slice(from);
  if (c.requests > 0) r.req = store.requests.slice(-c.requests);
  return r;
}
