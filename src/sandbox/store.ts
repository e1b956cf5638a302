// The sandbox's state, in SQLite (src/sandbox/state-schema.ts): the file of `--state`, the
// embedded sandbox's under the config dir, or a database in memory. The database is the truth:
// every lookup reads it and every change writes it at once, in the transaction of the current
// turn of the event loop (turn-tx.ts), so several processes on one file see one state. Objects
// handed out are copies: a change is kept when it is named (`changed({ invitation })`).
import { randomBytes } from 'node:crypto';
import type { TestSettings } from '../api/schemas/v3.js';
import type { SandboxClock } from './clock.js';
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
import { isDueForExpiry } from './state-machine.js';
import { StateStatements, type Param, type Row, type StateConnection } from './store-statements.js';
import {
  readMeta,
  saveInvitationRow,
  saveLinkRow,
  saveTestRow,
  writeMeta,
  type Meta,
  type SaveMode,
} from './store-rows.js';
import { readRecord, type StoredTable } from './stored.js';

export type { StateConnection } from './store-statements.js';

/** Requests kept in the request log (the oldest go first). */
export const MAX_REQUEST_LOG = 500;
/** Callback queue entries kept (deliveries keep their own history). */
export const MAX_QUEUE = 10_000;

export type CallbackHook = (entry: CallbackQueueEntry) => void;
export type ReportHook = (inv: SandboxInvitation) => void;
/** What a change touched: written at once, in the turn's transaction. */
export type Touched = { invitation: SandboxInvitation } | { link: SandboxLink } | { test: SandboxTest } | 'clock';
export type IdKind = keyof SandboxStateDoc['nextIds'];

/** A row's document as `table`'s record (undefined: no row). */
const parse = <K extends StoredTable>(table: K, row: Row | undefined) => (row ? readRecord(table, row.doc) : undefined);
const parseAll = <K extends StoredTable>(table: K, rows: Row[]) => rows.map((r) => readRecord(table, r.doc));

export class Store extends StateStatements {
  /** Where the sandbox listens (set after listen); used for URLs in callbacks. */
  origin = 'http://127.0.0.1';
  onCallbackQueued?: CallbackHook;
  /** Told when an attempt finishes with a result (the service generates its report then). */
  onReportReady?: ReportHook;

  /** exec() as the row writers take it. */
  private readonly write = (sql: string, ...params: Param[]) => this.exec(sql, ...params);

  /** `reader`: this process only reads the state (a test's look at what another one kept). */
  constructor(
    conn: StateConnection,
    private readonly reader = false,
  ) {
    super(conn);
  }

  // ───────────── ids, time ─────────────

  /** The sandbox clock, as stored (advanced, set or frozen by any process on the state). */
  get clock(): SandboxClock {
    return this.meta().clock;
  }

  /** The next id of each kind, as this turn sees them. */
  nextIds(): SandboxStateDoc['nextIds'] {
    return { ...this.meta().next };
  }

  nextId(kind: IdKind): number {
    const m = this.meta();
    const id = m.next[kind]++;
    this.touchMeta(m);
    return id;
  }

  /**
   * The clock and the id counters, read once a turn and written back when it commits: the turn
   * holds the write lock, so ids stay dense and in order across processes.
   */
  private meta(): Meta {
    return this.tx.once('meta', () => readMeta(this.db));
  }
  private touchMeta(m: Meta): void {
    if (m.dirty) return;
    m.dirty = true;
    this.tx.atCommit(() => {
      if (!m.replaced) writeMeta(this.write, m); // not when a reset wrote a new row meanwhile
    });
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
    // 9 random bytes a token, drawn 64 tokens at a time (one call into the CSPRNG costs as much as the rest of an
    // invite)
    if (this.randomAt >= this.random.length) {
      this.random = randomBytes(9 * 64);
      this.randomAt = 0;
    }
    this.randomAt += 9;
    return `${prefix}-${this.random.toString('base64url', this.randomAt - 9, this.randomAt)}`;
  }
  private random = Buffer.alloc(0);
  private randomAt = 0;

  // ───────────── lookups ─────────────

  account(id: number): Account | undefined {
    return this.tx.once(`account:${id}`, () =>
      parse('accounts', this.row('SELECT doc FROM accounts WHERE account_id = ?', id)),
    );
  }
  accounts(): Account[] {
    return parseAll('accounts', this.rows('SELECT doc FROM accounts ORDER BY account_id'));
  }
  /**
   * Tests, links and accounts are read once a turn (every invite reads its test and link): one
   * object for the turn's requests, as its transaction sees them; whoever changes one saves it.
   */
  test(id: number): SandboxTest | undefined {
    return this.tx.once(`test:${id}`, () => parse('tests', this.row('SELECT doc FROM tests WHERE test_id = ?', id)));
  }
  tests(): SandboxTest[] {
    return parseAll('tests', this.rows('SELECT doc FROM tests ORDER BY test_id'));
  }
  /** The account's test, or undefined when it does not exist or belongs to another account. */
  ownedTest(accountId: number, testId: number): SandboxTest | undefined {
    const t = this.test(testId);
    return t?.accountId === accountId ? t : undefined;
  }
  link(id: number): SandboxLink | undefined {
    return this.tx.once(`link:${id}`, () => parse('links', this.row('SELECT doc FROM links WHERE link_id = ?', id)));
  }
  linksOf(testId: number): SandboxLink[] {
    return parseAll('links', this.rows('SELECT doc FROM links WHERE test_id = ? ORDER BY link_id', testId));
  }
  linkByToken(token: string): SandboxLink | undefined {
    return parse('links', this.row('SELECT doc FROM links WHERE token = ?', token));
  }
  settingsOf(testId: number): TestSettings | undefined {
    return parse('settings', this.row('SELECT doc FROM settings WHERE test_id = ?', testId));
  }
  /** The invitation with expiry applied, or undefined. */
  invitation(id: number): SandboxInvitation | undefined {
    const inv = parse('invitations', this.row('SELECT doc FROM invitations WHERE invitation_id = ?', id));
    return inv && this.refresh(inv);
  }
  /** The account's invitation with expiry applied, or undefined (unknown or foreign). */
  ownedInvitation(accountId: number, id: number): SandboxInvitation | undefined {
    const inv = this.invitation(id);
    return inv?.accountId === accountId ? inv : undefined;
  }
  /** The invitation a test URL's token opens (the token begins with the invitation's id). */
  invitationByToken(token: string): SandboxInvitation | undefined {
    const id = /^inv-(\d{1,15})-/.exec(token)?.[1];
    const inv = id === undefined ? undefined : this.invitation(Number(id));
    return inv?.accessToken === token ? inv : undefined;
  }
  /** The latest attempt of one candidate (case-insensitive e-mail) on one link, or undefined. */
  latestAttempt(testLinkId: number, email: string): SandboxInvitation | undefined {
    const key = email.toLowerCase();
    // most invites are of new candidates: a plain look-up first (an ORDER BY costs µs even on the index)
    if (!this.row('SELECT 1 FROM invitations WHERE link_id = ? AND email_key = ?', testLinkId, key)) return undefined;
    const sql = 'SELECT doc FROM invitations WHERE link_id = ? AND email_key = ? ORDER BY invitation_id DESC LIMIT 1';
    const inv = parse('invitations', this.row(sql, testLinkId, key));
    return inv && this.refresh(inv);
  }
  /** Invitations (expiry applied), oldest first: of one account and in these states, or all. */
  invitations(where: { accountId?: number; statuses?: readonly string[] } = {}): SandboxInvitation[] {
    this.sweepExpiry();
    const states = where.statuses ?? [];
    const sql =
      'SELECT doc FROM invitations WHERE (?1 IS NULL OR account_id = ?1)' +
      (states.length ? ` AND status IN (${states.map(() => '?').join(', ')})` : '') +
      ' ORDER BY invitation_id';
    return parseAll('invitations', this.rows(sql, where.accountId ?? null, ...states));
  }
  count(table: 'tests' | 'invitations'): number {
    return Number(this.row(`SELECT count(*) AS n FROM ${table}`)!.n);
  }

  // ───────────── changes ─────────────

  /** A new link: an id in use (a counter set back by hand) fails, never overwrites. */
  addLink(l: SandboxLink): void {
    this.tx.changes++;
    this.saveLink(l, 'new');
  }
  /** A new invitation: an id in use fails (the turn is refused), never overwrites an attempt. */
  addInvitation(inv: SandboxInvitation): void {
    this.tx.changes++;
    this.saveInvitation(inv, 'new');
  }
  setSettings(testId: number, settings: TestSettings): void {
    this.tx.changes++;
    const sql =
      'INSERT INTO settings (test_id, doc) VALUES (?, ?) ON CONFLICT (test_id) DO UPDATE SET doc = excluded.doc';
    this.exec(sql, testId, JSON.stringify(settings));
  }

  /** Writes what a change touched (in this turn's transaction; a route answers after flush()). */
  changed(...what: [Touched, ...Touched[]]): void {
    this.tx.changes++;
    for (const t of what) {
      if (t === 'clock') this.touchMeta(this.meta());
      else if ('invitation' in t) this.saveInvitation(t.invitation);
      else if ('link' in t) this.saveLink(t.link);
      else this.saveTest(t.test);
    }
  }
  /** A change made while reading (lazy expiry, a delivery's try): kept as any other. */
  changedLater(...what: [Touched, ...Touched[]]): void {
    this.changed(...what);
  }

  private saveInvitation(inv: SandboxInvitation, mode: SaveMode = 'any'): void {
    saveInvitationRow(this.write, inv, mode);
  }
  private saveLink(l: SandboxLink, mode: SaveMode = 'any'): void {
    this.tx.forget(`link:${l.testLinkId}`);
    saveLinkRow(this.write, l, mode);
  }
  private saveTest(t: SandboxTest): void {
    this.tx.forget(`test:${t.testId}`);
    saveTestRow(this.write, t);
  }

  /** Lazy expiry: a Pending invitation past its access end becomes Expired (at that end). */
  refresh(inv: SandboxInvitation): SandboxInvitation {
    if (isDueForExpiry(inv, this.clock.now())) {
      inv.status = 'Expired';
      inv.expiredAt = inv.accessEnd;
      inv.updatedAt = this.nowIso();
      if (!this.reader) this.changed({ invitation: inv }); // a reader shows it expired, the next writer keeps it
    }
    return inv;
  }
  /** Applies expiry to every invitation due (after a clock move, before listing). Returns the ids expired. */
  sweepExpiry(): number[] {
    const due = this.rows('SELECT doc FROM invitations WHERE expires_at_ms < ?', this.clock.now());
    return parseAll('invitations', due).map((inv) => this.refresh(inv).testInvitationId);
  }

  enqueueCallback(entry: Omit<CallbackQueueEntry, 'eventId' | 'queuedAt'>): CallbackQueueEntry {
    const full: CallbackQueueEntry = { eventId: this.nextId('event'), queuedAt: this.nowIso(), ...entry };
    this.exec('INSERT INTO callbacks (event_id, doc) VALUES (?, ?)', full.eventId, JSON.stringify(full));
    if (full.eventId % 100 === 0) this.exec('DELETE FROM callbacks WHERE event_id <= ?', full.eventId - MAX_QUEUE);
    try {
      this.onCallbackQueued?.(full);
    } catch {
      // a hook's failure must not fail the API call that queued the callback
    }
    return full;
  }
  /** The callback queue, oldest first (after: only the entries queued after that event id). */
  callbacks(after = 0): CallbackQueueEntry[] {
    return parseAll('callbacks', this.rows('SELECT doc FROM callbacks WHERE event_id > ? ORDER BY event_id', after));
  }
  lastEventId(): number {
    return Number(this.row('SELECT coalesce(max(event_id), 0) AS id FROM callbacks')!.id);
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
    const full: OutboxEntry = { emailId: this.nextId('email'), sentAt: this.nowIso(), ...entry };
    const sql = 'INSERT INTO outbox (email_id, invitation_id, doc) VALUES (?, ?, ?)';
    this.exec(sql, full.emailId, full.testInvitationId, JSON.stringify(full));
  }
  /** The e-mails "sent", oldest first (of one invitation, or all). */
  outbox(invitationId?: number): OutboxEntry[] {
    const sql = 'SELECT doc FROM outbox WHERE ?1 IS NULL OR invitation_id = ?1 ORDER BY email_id';
    return parseAll('outbox', this.rows(sql, invitationId ?? null));
  }

  recordRequest(entry: RequestLogEntry): void {
    const seq = this.exec('INSERT INTO requests (doc) VALUES (?)', JSON.stringify(entry)).rowid;
    if (seq % 100 === 0) this.exec('DELETE FROM requests WHERE seq <= ?', seq - MAX_REQUEST_LOG);
  }
  /** Callback deliveries and their tries, oldest first (of one invitation, or all). */
  deliveries(invitationId?: number): Delivery[] {
    const sql = 'SELECT doc FROM deliveries WHERE ?1 IS NULL OR invitation_id = ?1 ORDER BY delivery_id';
    return parseAll('deliveries', this.rows(sql, invitationId ?? null));
  }

  /** The request log, oldest first: the last `limit` (default: all kept). */
  requests(limit = MAX_REQUEST_LOG): RequestLogEntry[] {
    const sql = 'SELECT doc FROM requests ORDER BY seq DESC LIMIT ?';
    return parseAll('requests', this.rows(sql, Math.min(limit, MAX_REQUEST_LOG))).reverse();
  }
  clearRequests(): void {
    this.exec('DELETE FROM requests');
  }

  /** The state was replaced within this turn (a reset, the seed): what was read before it is read again. */
  replaced(): void {
    const m = this.tx.once('meta', () => undefined as Meta | undefined);
    if (m) m.replaced = true; // not written back over the new row
    this.tx.forget();
  }
}
