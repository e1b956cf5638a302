// Delivers queued completion notifications the way the service does: HTTP POST of the JSON body
// to the invitation's callback URL, tried up to `maxAttempts` times back to back (no spacing),
// each try bounded by a timeout, redirects never followed, only http/https; then dropped and
// recorded as failed. Sending never blocks the request that queued it. One invitation's
// notifications go out in order (In Progress before Complete); different invitations in
// parallel. Delivery records live in the sandbox's state; several processes may serve one state,
// so a process claims a row before it sends (a lease it renews at each try, in a transaction):
// a notification is never sent by two at once, and one left by a process that stopped (its
// claim released) or was killed (its lease run out) is taken over. An attempt cut short by
// close() is not recorded: it is retried.
import { randomBytes } from 'node:crypto';
import type { Agent } from 'undici';
import { loadUndici } from '../api/undici.js';
import { DeliveryFaults } from './delivery-faults.js';
import type { CallbackQueueEntry, Delivery, DeliveryAttempt } from './model.js';
import type { Store } from './store.js';
import { readRecord } from './stored.js';

export interface DeliveryOptions {
  /** Per-try timeout (connect + answer), default 5000 ms. */
  timeoutMs?: number;
  /** Tries before a delivery is dropped as failed, default 5. */
  maxAttempts?: number;
  /** Deliveries sent at the same time, default 8. */
  concurrency?: number;
}

export const DELIVERY_DEFAULTS: Required<DeliveryOptions> = { timeoutMs: 5000, maxAttempts: 5, concurrency: 8 };
/** Finished deliveries kept in the history (oldest dropped first; pending ones are never dropped). */
const MAX_HISTORY = 2000;
/** How often a sandbox looks for deliveries no live process holds. */
const POLL_MS = 1000;
/** A claim outlives a try's timeout by this much before another process may take the delivery over. */
const LEASE_MARGIN_MS = 5000;
const USER_AGENT = 'assess-sandbox-callbacks/1';

/** A 2xx answer is delivered; anything else (3xx included: never followed) is a failed try. */
export function describeAnswer(status: number, location?: string | string[]): string | null {
  if (status >= 200 && status < 300) return null;
  if (status >= 300 && status < 400)
    return `HTTP ${status}: redirect not followed${location ? ` (Location: ${String(location)})` : ''}`;
  return `HTTP ${status}`;
}

/** Why a URL cannot be delivered to at all (no try is worth making), or null. */
export function unsupportedUrl(url: string): string | null {
  if (!URL.canParse(url)) return `not a valid URL: ${url}`;
  const { protocol } = new URL(url);
  return protocol === 'http:' || protocol === 'https:'
    ? null
    : `unsupported URL scheme '${protocol}' (only http and https are delivered)`;
}

function errorText(err: unknown): string {
  const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e.code ?? e.cause?.code;
  const message = e.cause?.message ?? e.message ?? String(err);
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}

/** A delivery this process runs: the claim it holds on its row (another process may take it over). */
interface Run {
  d: Delivery;
  claim: number;
}

const ROW_OF = 'SELECT delivery_id, owner, lease_until_ms, doc FROM deliveries';
const MINE = 'delivery_id = ? AND owner = ? AND claim = ?';

export class Deliverer {
  readonly opts: Required<DeliveryOptions>;
  private agent: Agent | undefined; // made on the first delivery
  private readonly stopping = new AbortController();
  private unfinished = 0;
  /** Of those, the ones queued by this run (not resumed from an earlier one). */
  private unfinishedQueued = 0;
  private readonly tails = new Map<number, Promise<void>>(); // invitation id → last scheduled delivery
  private readonly idleWaiters = new Set<() => void>();
  private running = 0;
  private readonly slotWaiters: Array<() => void> = [];
  /** This sandbox in the rows' claims: a process on the same state never runs a delivery it holds. */
  private readonly owner = `${process.pid}.${randomBytes(6).toString('hex')}`;
  private claims = 0;
  /** Deliveries this process runs (by id). */
  private readonly mine = new Set<number>();
  /** How long a claim holds without being renewed (each try renews it): then another process may take it. */
  private readonly leaseMs: number;
  private readonly poll: NodeJS.Timeout;

  constructor(
    private readonly store: Store,
    opts: DeliveryOptions = {},
    /** Injected receiver-side faults (drop, 5xx, hang); none by default. */
    readonly faults = new DeliveryFaults(),
  ) {
    this.opts = { ...DELIVERY_DEFAULTS, ...opts };
    this.leaseMs = this.opts.timeoutMs + LEASE_MARGIN_MS;
    // deliveries left by a process that stopped, or queued by another one behind a delivery it held
    this.poll = setInterval(() => this.resumePending(), POLL_MS).unref();
  }

  /** Records a delivery for a queued notification and schedules it (returns at once). */
  enqueue(entry: CallbackQueueEntry): Delivery {
    const d: Delivery = {
      deliveryId: entry.eventId,
      testInvitationId: entry.testInvitationId,
      accountId: entry.accountId,
      url: entry.url,
      event: entry.status,
      reason: entry.reason,
      state: 'pending',
      queuedAt: entry.queuedAt,
      finishedAt: null,
      attempts: [],
      payload: entry.payload,
    };
    const sql = 'INSERT INTO deliveries (delivery_id, invitation_id, state, doc) VALUES (?, ?, ?, ?)';
    this.store.exec(sql, d.deliveryId, d.testInvitationId, d.state, JSON.stringify(d)); // with the request's changes
    if (d.deliveryId % 100 === 0) this.trimHistory();
    this.claimFor(d.testInvitationId, d.deliveryId);
    return d;
  }

  /**
   * Claims and schedules the pending deliveries no live process holds: those a previous run
   * left (at start, and every POLL_MS), or those queued behind another process's. Returns how many.
   */
  resumePending(): number {
    if (this.stopping.signal.aborted) return 0;
    try {
      const sql =
        `SELECT DISTINCT invitation_id FROM deliveries WHERE state = 'pending' AND (owner IS NULL OR ` +
        `lease_until_ms < ?) LIMIT 100`;
      let n = 0;
      for (const r of this.store.peek(sql, Date.now())) n += this.claimFor(Number(r.invitation_id));
      return n;
    } catch {
      return 0; // the state is busy or unwritable just now: the next poll tries again
    }
  }

  /**
   * Claims one invitation's pending deliveries in order, up to the first that another live
   * process holds (its notifications go out in order: the rest wait for that one).
   */
  private claimFor(invitationId: number, queuedId?: number): number {
    const now = Date.now();
    let n = 0;
    const rows = this.store.rows(
      `${ROW_OF} WHERE invitation_id = ? AND state = 'pending' ORDER BY delivery_id`,
      invitationId,
    );
    for (const r of rows) {
      const id = Number(r.delivery_id);
      const held = r.owner !== null && Number(r.lease_until_ms) >= now;
      if (held && r.owner !== this.owner) break;
      if (this.mine.has(id)) continue;
      const claim = ++this.claims;
      const sql =
        `UPDATE deliveries SET owner = ?, claim = ?, lease_until_ms ` +
        `= ? WHERE delivery_id = ? AND state = 'pending'`;
      this.store.exec(sql, this.owner, claim, now + this.leaseMs, id);
      this.schedule({ d: readRecord('deliveries', r.doc), claim }, id === queuedId);
      n++;
    }
    return n;
  }

  /** Deliveries scheduled and not yet delivered or failed (`queuedOnly`: of those this run queued). */
  inFlight(queuedOnly = false): number {
    return queuedOnly ? this.unfinishedQueued : this.unfinished;
  }

  /**
   * Resolves true once nothing is in flight, or false after `timeoutMs`. `queuedOnly`: once the
   * deliveries this run queued are done (and those ahead of them for the same invitation); the
   * ones resumed from an earlier run may still be trying an unreachable receiver.
   */
  idle(timeoutMs: number, queuedOnly = false): Promise<boolean> {
    if (this.inFlight(queuedOnly) === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (value: boolean) => {
        clearTimeout(timer);
        this.idleWaiters.delete(onIdle);
        resolve(value);
      };
      const onIdle = () => {
        if (this.inFlight(queuedOnly) === 0) done(true);
      };
      const timer = setTimeout(() => done(false), timeoutMs);
      this.idleWaiters.add(onIdle);
    });
  }

  /** Stops sending: tries in progress are cut short; their deliveries stay pending, free for the next sandbox. */
  async close(): Promise<void> {
    clearInterval(this.poll);
    this.stopping.abort();
    for (const wake of this.slotWaiters.splice(0)) wake();
    await Promise.allSettled([...this.tails.values()]);
    await this.agent?.destroy().catch(() => undefined);
    const release =
      `UPDATE deliveries SET owner = NULL, claim = NULL, lease_until_ms = NULL WHERE owner = ? AND ` +
      `state = 'pending'`;
    this.store.exec(release, this.owner);
  }

  private schedule(run: Run, queued: boolean): void {
    this.unfinished++;
    if (queued) this.unfinishedQueued++;
    const id = run.d.testInvitationId;
    this.mine.add(run.d.deliveryId);
    const tail: Promise<void> = (this.tails.get(id) ?? Promise.resolve())
      .then(() => this.run(run))
      .catch(() => undefined) // run records its own failures; nothing may escape into the server
      .finally(() => {
        this.mine.delete(run.d.deliveryId);
        if (this.tails.get(id) === tail) this.tails.delete(id);
        this.unfinished--;
        if (queued) this.unfinishedQueued--;
        for (const wake of [...this.idleWaiters]) wake();
      });
    this.tails.set(id, tail);
  }

  private async run(run: Run): Promise<void> {
    const d = run.d;
    if (this.stopping.signal.aborted) return;
    await this.acquire();
    try {
      if (!(await this.renew(run))) return; // another process has it now, or the state was reset
      const failure =
        unsupportedUrl(d.url) ?? (this.faults.dropNotification() ? 'dropped (sandbox delivery fault)' : null);
      if (failure) {
        const n = d.attempts.length + 1;
        d.attempts.push({ n, at: this.store.nowIso(), url: d.url, status: null, error: failure, durationMs: 0 });
        return this.finish(run, 'failed');
      }
      while (d.attempts.length < this.opts.maxAttempts) {
        const attempt = await this.attempt(d);
        if (!attempt) return; // stopping: stays pending, resumes on the next start
        d.attempts.push(attempt);
        if (attempt.error === null) return this.finish(run, 'delivered');
        if (!this.save(run) || (d.attempts.length < this.opts.maxAttempts && !(await this.renew(run)))) return;
      }
      this.finish(run, 'failed');
    } finally {
      this.release();
    }
  }

  /**
   * Extends this process's claim for one more try and waits for it to commit (so no other
   * process takes the delivery meanwhile; the row itself committed with the request that queued
   * it). False when the claim is gone: the delivery is another process's now, or was reset away.
   */
  private async renew(run: Run): Promise<boolean> {
    const sql = `UPDATE deliveries SET lease_until_ms = ? WHERE ${MINE} AND state = 'pending'`;
    if (this.store.exec(sql, Date.now() + this.leaseMs, run.d.deliveryId, this.owner, run.claim).changes !== 1)
      return false;
    try {
      await this.store.flush();
      return !this.stopping.signal.aborted;
    } catch {
      return false;
    }
  }

  /** Writes the tries so far; false when the claim is gone. */
  private save(run: Run): boolean {
    const sql = `UPDATE deliveries SET doc = ? WHERE ${MINE}`;
    return this.store.exec(sql, JSON.stringify(run.d), run.d.deliveryId, this.owner, run.claim).changes === 1;
  }

  private finish(run: Run, state: 'delivered' | 'failed'): void {
    const d = run.d;
    d.state = state;
    d.finishedAt = this.store.nowIso();
    const sql = `UPDATE deliveries SET state = ?, doc = ?, owner = NULL, claim = NULL, lease_until_ms = NULL
      WHERE ${MINE}`;
    this.store.exec(sql, state, JSON.stringify(d), d.deliveryId, this.owner, run.claim);
    this.claimFor(d.testInvitationId); // notifications another process queued behind this one
  }

  /** Keeps the last MAX_HISTORY finished deliveries (pending ones are never dropped). */
  private trimHistory(): void {
    const sql = `DELETE FROM deliveries WHERE state != 'pending' AND delivery_id < (
      SELECT delivery_id FROM deliveries WHERE state != 'pending' ORDER BY delivery_id DESC LIMIT 1 OFFSET ?)`;
    this.store.exec(sql, MAX_HISTORY - 1);
  }

  private async attempt(d: Delivery): Promise<DeliveryAttempt | null> {
    if (this.stopping.signal.aborted) return null;
    const at = this.store.nowIso();
    const started = performance.now();
    const timeout = AbortSignal.timeout(this.opts.timeoutMs);
    const base = { n: d.attempts.length + 1, at, url: d.url };
    const injected = this.faults.tryFault();
    if (injected === '5xx') return { ...base, status: 503, error: 'HTTP 503 (sandbox delivery fault)', durationMs: 0 };
    if (injected === 'hang') {
      // nothing is sent: the try waits out its timeout, as against a receiver that never answers
      await new Promise<void>((r) => {
        const t = setTimeout(r, this.opts.timeoutMs);
        this.stopping.signal.addEventListener('abort', () => (clearTimeout(t), r()), { once: true });
      });
      if (this.stopping.signal.aborted) return null;
      return {
        ...base,
        status: null,
        error: `timed out after ${this.opts.timeoutMs} ms (sandbox delivery fault)`,
        durationMs: this.opts.timeoutMs,
      };
    }
    try {
      const undici = await loadUndici();
      this.agent ??= new undici.Agent({ connect: { timeout: this.opts.timeoutMs }, keepAliveTimeout: 1000 });
      const res = await undici.request(d.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8', 'user-agent': USER_AGENT },
        body: JSON.stringify(d.payload),
        signal: AbortSignal.any([this.stopping.signal, timeout]),
        dispatcher: this.agent,
      });
      await res.body.dump().catch(() => undefined); // the answer's body is not needed
      const durationMs = Math.round(performance.now() - started);
      return {
        ...base,
        status: res.statusCode,
        error: describeAnswer(res.statusCode, res.headers.location),
        durationMs,
      };
    } catch (err) {
      if (this.stopping.signal.aborted) return null;
      const durationMs = Math.round(performance.now() - started);
      const error = timeout.aborted ? `timed out after ${this.opts.timeoutMs} ms` : errorText(err);
      return { ...base, status: null, error, durationMs };
    }
  }

  private async acquire(): Promise<void> {
    while (this.running >= this.opts.concurrency && !this.stopping.signal.aborted)
      await new Promise<void>((wake) => this.slotWaiters.push(wake));
    this.running++;
  }

  private release(): void {
    this.running--;
    this.slotWaiters.shift()?.();
  }
}
