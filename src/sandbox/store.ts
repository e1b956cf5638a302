// In-memory state with indexes for the hot paths, lazy expiry, and persistence.
// Persistence policy: every change names what it changed (changed({ invitation }), …: the
// StateWriter logs just those) and bumps a version; mutating routes `await store.flush()` before
// they answer (so a 2xx means the change is on disk), concurrent flushes share one write (group
// commit), and changes made by reads (lazy expiry, the request log, delivery tries) are written
// by a short debounce timer. close() flushes whatever is left. Without a state file nothing
// touches disk.
import { randomBytes } from 'node:crypto';
import type { TestSettings } from '../api/schemas/v3.js';
import { SandboxClock } from './clock.js';
import type {
  Account,
  CallbackQueueEntry,
  Delivery,
  OutboxEntry,
  RequestLogEntry,
  SandboxInvitation,
  SandboxLink,
  SandboxStateDoc,
  SandboxTest,
} from './model.js';
import { STATE_FORMAT } from './model.js';
import { buildSeedState } from './seed.js';
import { MAX_QUEUE, MAX_REQUEST_LOG } from './state-log.js';
import { isDueForExpiry } from './state-machine.js';
import { ChangeSet, type StateWriter, type Touched } from './state-writer.js';

const DEBOUNCE_MS = 50;

export type CallbackHook = (entry: CallbackQueueEntry) => void;
export type ReportHook = (inv: SandboxInvitation) => void;

export class Store {
  readonly clock: SandboxClock;
  accounts = new Map<number, Account>();
  tests = new Map<number, SandboxTest>();
  links = new Map<number, SandboxLink>();
  invitations = new Map<number, SandboxInvitation>();
  settings = new Map<number, TestSettings>();
  callbackQueue: CallbackQueueEntry[] = [];
  outbox: OutboxEntry[] = [];
  /** Callback deliveries and their attempts (src/sandbox/delivery.ts does the sending). */
  deliveries: Delivery[] = [];
  requests: RequestLogEntry[] = [];
  nextIds!: SandboxStateDoc['nextIds'];
  /** Where the sandbox listens (set after listen); used for URLs in callbacks. */
  origin = 'http://127.0.0.1';
  onCallbackQueued?: CallbackHook;
  /** Told when an attempt finishes with a result (the service generates its report then). */
  onReportReady?: ReportHook;

  private linksByTest = new Map<number, SandboxLink[]>();
  private attemptsByCandidate = new Map<string, number[]>(); // `${linkId}|${email}` → ids, ascending
  private byToken = new Map<string, number>();

  /** Counts changes to the data (not the request log): caches of derived output key on it. */
  mutations = 0;
  private version = 0;
  private written = 0;
  private writing: Promise<void> | null = null;
  /** The version the last write started took (a failed one fails only the changes it took). */
  private attempted = 0;
  private timer: NodeJS.Timeout | null = null;
  /** What changed since the last write (kept only with a state file). */
  readonly changes = new ChangeSet();

  constructor(
    doc: SandboxStateDoc,
    private readonly writer?: StateWriter,
  ) {
    this.clock = new SandboxClock(doc.clockOffsetMs, doc.clockFrozenAtMs ?? null);
    this.load(doc);
    this.changes.clear(this);
  }

  static seeded(writer?: StateWriter): Store {
    return new Store(buildSeedState(Date.now()), writer);
  }

  private load(doc: SandboxStateDoc): void {
    this.accounts = new Map(doc.accounts.map((a) => [a.accountId, a]));
    this.tests = new Map(doc.tests.map((t) => [t.testId, t]));
    this.links = new Map();
    this.linksByTest = new Map();
    for (const l of doc.links) this.indexLink(l);
    this.invitations = new Map();
    this.attemptsByCandidate = new Map();
    this.byToken = new Map();
    for (const i of [...doc.invitations].sort((a, b) => a.testInvitationId - b.testInvitationId))
      this.indexInvitation(i);
    this.settings = new Map(doc.settings.map((s) => [s.testId, s.settings]));
    this.callbackQueue = doc.callbackQueue;
    this.outbox = doc.outbox;
    this.deliveries = doc.deliveries ?? [];
    this.requests = doc.requests;
    this.nextIds = doc.nextIds;
  }

  /** Back to the seed data; the clock returns to real time (and runs). */
  reset(): void {
    this.clock.freeze(false);
    this.clock.set(Date.now());
    this.load(buildSeedState(this.clock.now(), this.clock.offset));
    this.changed('all');
  }

  toDoc(): SandboxStateDoc {
    return {
      format: STATE_FORMAT,
      version: 1,
      clockOffsetMs: this.clock.offset,
      clockFrozenAtMs: this.clock.frozenAt,
      nextIds: this.nextIds,
      accounts: [...this.accounts.values()],
      tests: [...this.tests.values()],
      links: [...this.links.values()],
      settings: [...this.settings].map(([testId, settings]) => ({ testId, settings })),
      invitations: [...this.invitations.values()],
      callbackQueue: this.callbackQueue,
      outbox: this.outbox,
      requests: this.requests.slice(-MAX_REQUEST_LOG),
      deliveries: this.deliveries,
    };
  }

  // ───────────── ids, time ─────────────

  nextId(kind: keyof SandboxStateDoc['nextIds']): number {
    return this.nextIds[kind]++;
  }
  /** Sandbox time as `YYYY-MM-ddTHH:mm:ssZ` (formatted once per second: it is on the hot path). */
  nowIso(): string {
    const sec = Math.floor(this.clock.now() / 1000);
    if (sec !== this.isoSecond) {
      this.isoSecond = sec;
      this.isoText = new Date(sec * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    }
    return this.isoText;
  }
  private isoSecond = NaN;
  private isoText = '';
  newToken(prefix: string): string {
    return `${prefix}-${randomBytes(9).toString('base64url')}`;
  }

  // ───────────── lookups (scoped to an account) ─────────────

  /** The account's test, or undefined when it does not exist or belongs to another account. */
  ownedTest(accountId: number, testId: number): SandboxTest | undefined {
    const t = this.tests.get(testId);
    return t && t.accountId === accountId ? t : undefined;
  }
  linksOf(testId: number): SandboxLink[] {
    return this.linksByTest.get(testId) ?? [];
  }
  /** The account's invitation with expiry applied, or undefined (unknown or foreign). */
  ownedInvitation(accountId: number, id: number): SandboxInvitation | undefined {
    const inv = this.invitations.get(id);
    if (!inv || inv.accountId !== accountId) return undefined;
    this.refresh(inv);
    return inv;
  }
  invitationByToken(token: string): SandboxInvitation | undefined {
    const id = this.byToken.get(token);
    const inv = id === undefined ? undefined : this.invitations.get(id);
    if (inv) this.refresh(inv);
    return inv;
  }
  /** All attempts of one candidate (case-insensitive e-mail) on one link, oldest first. */
  attemptsOf(testLinkId: number, email: string): SandboxInvitation[] {
    const ids = this.attemptsByCandidate.get(`${testLinkId}|${email.toLowerCase()}`) ?? [];
    return ids.map((id) => this.refresh(this.invitations.get(id)!));
  }

  // ───────────── changes ─────────────

  addLink(l: SandboxLink): void {
    this.indexLink(l);
    this.changed({ link: l });
  }
  addInvitation(inv: SandboxInvitation): void {
    this.indexInvitation(inv);
    this.changed({ invitation: inv });
  }

  private indexLink(l: SandboxLink): void {
    this.links.set(l.testLinkId, l);
    const list = this.linksByTest.get(l.testId) ?? [];
    list.push(l);
    this.linksByTest.set(l.testId, list);
  }
  private indexInvitation(inv: SandboxInvitation): void {
    this.invitations.set(inv.testInvitationId, inv);
    const key = `${inv.testLinkId}|${inv.email.toLowerCase()}`;
    const ids = this.attemptsByCandidate.get(key) ?? [];
    ids.push(inv.testInvitationId);
    this.attemptsByCandidate.set(key, ids);
    this.byToken.set(inv.accessToken, inv.testInvitationId);
  }

  /** Lazy expiry: a Pending invitation past its access end becomes Expired (at that end). */
  refresh(inv: SandboxInvitation): SandboxInvitation {
    if (isDueForExpiry(inv, this.clock.now())) {
      inv.status = 'Expired';
      inv.expiredAt = inv.accessEnd;
      inv.updatedAt = this.nowIso();
      this.mutations++;
      this.changedLater({ invitation: inv });
    }
    return inv;
  }
  /** Applies expiry to every invitation (after a clock move, before listing). Returns the ids expired. */
  sweepExpiry(): number[] {
    const expired: number[] = [];
    for (const inv of this.invitations.values()) {
      const before = inv.status;
      this.refresh(inv);
      if (before !== inv.status) expired.push(inv.testInvitationId);
    }
    return expired;
  }

  enqueueCallback(entry: Omit<CallbackQueueEntry, 'eventId' | 'queuedAt'>): CallbackQueueEntry {
    const full: CallbackQueueEntry = { eventId: this.nextId('event'), queuedAt: this.nowIso(), ...entry };
    this.callbackQueue.push(full);
    if (this.callbackQueue.length > MAX_QUEUE) this.callbackQueue.splice(0, this.callbackQueue.length - MAX_QUEUE);
    this.bump(); // the writer logs the entries after the last one it wrote
    try {
      this.onCallbackQueued?.(full);
    } catch {
      // a hook's failure must not fail the API call that queued the callback
    }
    return full;
  }

  /** An attempt finished with a result: its report can be generated (in the background). */
  reportReady(inv: SandboxInvitation): void {
    try {
      this.onReportReady?.(inv);
    } catch {
      // report generation must not fail the move that finished the attempt
    }
  }

  recordEmail(entry: Omit<OutboxEntry, 'emailId' | 'sentAt'>): void {
    this.outbox.push({ emailId: this.nextId('email'), sentAt: this.nowIso(), ...entry });
    this.bump(); // the writer logs the e-mails after the last one it wrote
  }

  recordRequest(entry: RequestLogEntry): void {
    this.requests.push(entry);
    if (this.requests.length > MAX_REQUEST_LOG * 2) this.requests.splice(0, this.requests.length - MAX_REQUEST_LOG);
    this.changes.requests++;
    this.later();
  }

  // ───────────── persistence ─────────────

  /** A change that the current request will flush before answering; names what it touched. */
  changed(...what: [Touched, ...Touched[]]): void {
    this.mark(what);
    this.bump();
  }
  /** A change made while reading: written by the debounce timer, not awaited. */
  changedLater(...what: [Touched, ...Touched[]]): void {
    this.mark(what);
    this.later();
  }

  private mark(what: Touched[]): void {
    if (this.writer) this.changes.note(what);
  }
  private bump(): void {
    this.version++;
    this.mutations++;
  }
  private later(): void {
    this.version++;
    if (!this.writer || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flush().catch(() => {}); // a failed background write is retried by the next flush
    }, DEBOUNCE_MS);
    this.timer.unref();
  }

  /** Resolves once everything changed so far is on disk (no-op without a state file). */
  async flush(): Promise<void> {
    if (!this.writer) {
      this.written = this.version;
      return;
    }
    const want = this.version;
    while (this.written < want) {
      const writing = (this.writing ??= this.commitSoon().finally(() => {
        this.writing = null;
      }));
      try {
        await writing;
      } catch (err) {
        if (this.attempted >= want) throw err; // else it failed before taking this change: try again
      }
    }
  }

  /** One write for every request handled in this turn of the event loop (they join it meanwhile). */
  private async commitSoon(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    const v = (this.attempted = this.version);
    await this.writer!.commit(this); // takes what changed before it returns: later changes wait for the next write
    this.written = Math.max(this.written, v);
  }

  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.flush();
    await this.writer?.close(this);
  }
}
