// Delivers queued completion notifications the way the service does: HTTP POST of the JSON body
// to the invitation's callback URL, tried up to `maxAttempts` times back to back (no spacing),
// each try bounded by a timeout, redirects never followed, only http/https; then dropped and
// recorded as failed. Sending never blocks the request that queued it. One invitation's
// notifications go out in order (In Progress before Complete); different invitations in
// parallel. Delivery records live in store.deliveries (persisted), so pending ones resume when a
// persisted sandbox starts again. An attempt cut short by close() is not recorded: it is retried.
import type { Agent } from 'undici';
import { loadUndici } from '../api/undici.js';
import { DeliveryFaults } from './delivery-faults.js';
import type { CallbackQueueEntry, Delivery, DeliveryAttempt } from './model.js';
import type { Store } from './store.js';

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

  constructor(
    private readonly store: Store,
    opts: DeliveryOptions = {},
    /** Injected receiver-side faults (drop, 5xx, hang); none by default. */
    readonly faults = new DeliveryFaults(),
  ) {
    this.opts = { ...DELIVERY_DEFAULTS, ...opts };
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
    this.store.deliveries.push(d);
    this.trimHistory();
    this.store.changed({ delivery: d }); // written with the request that queued it
    this.schedule(d, true);
    return d;
  }

  /** Schedules the deliveries a previous run left pending. Returns how many. */
  resumePending(): number {
    const pending = this.store.deliveries.filter((d) => d.state === 'pending');
    for (const d of pending) this.schedule(d, false);
    return pending.length;
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

  /** Stops sending: tries in progress are cut short and their deliveries stay pending. */
  async close(): Promise<void> {
    this.stopping.abort();
    for (const wake of this.slotWaiters.splice(0)) wake();
    await Promise.allSettled([...this.tails.values()]);
    await this.agent?.destroy().catch(() => undefined);
  }

  private schedule(d: Delivery, queued: boolean): void {
    this.unfinished++;
    if (queued) this.unfinishedQueued++;
    const id = d.testInvitationId;
    const tail: Promise<void> = (this.tails.get(id) ?? Promise.resolve())
      .then(() => this.run(d))
      .catch(() => undefined) // run records its own failures; nothing may escape into the server
      .finally(() => {
        if (this.tails.get(id) === tail) this.tails.delete(id);
        this.unfinished--;
        if (queued) this.unfinishedQueued--;
        for (const wake of [...this.idleWaiters]) wake();
      });
    this.tails.set(id, tail);
  }

  private async run(d: Delivery): Promise<void> {
    if (this.stopping.signal.aborted || d.state !== 'pending') return;
    await this.acquire();
    try {
      const unusable = unsupportedUrl(d.url);
      if (unusable) {
        d.attempts.push({
          n: d.attempts.length + 1,
          at: this.store.nowIso(),
          url: d.url,
          status: null,
          error: unusable,
          durationMs: 0,
        });
        return this.finish(d, 'failed');
      }
      if (this.faults.dropNotification()) {
        d.attempts.push({
          n: 1,
          at: this.store.nowIso(),
          url: d.url,
          status: null,
          error: 'dropped (sandbox delivery fault)',
          durationMs: 0,
        });
        return this.finish(d, 'failed');
      }
      while (d.attempts.length < this.opts.maxAttempts) {
        const attempt = await this.attempt(d);
        if (!attempt) return; // stopping: stays pending, resumes on the next start
        d.attempts.push(attempt);
        if (attempt.error === null) return this.finish(d, 'delivered');
        this.store.changedLater({ delivery: d });
      }
      this.finish(d, 'failed');
    } finally {
      this.release();
    }
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

  private finish(d: Delivery, state: 'delivered' | 'failed'): void {
    d.state = state;
    d.finishedAt = this.store.nowIso();
    this.store.changedLater({ delivery: d });
  }

  private trimHistory(): void {
    const list = this.store.deliveries;
    let excess = list.length - MAX_HISTORY;
    if (excess <= 0) return;
    this.store.deliveries = list.filter((d) => {
      if (d.state === 'pending' || excess-- <= 0) return true;
      this.store.changed({ droppedDelivery: d.deliveryId });
      return false;
    });
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
