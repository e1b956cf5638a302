// How `callbacks listen --forward-to` sends its queue: one lane per invitation (its notifications
// in arrival order: In Progress before Complete), up to `concurrency` lanes at once. A failed try
// is retried later (backoff, Retry-After), the lane waiting meanwhile; a notification becomes a
// dead letter only once its tries are spent. A circuit breaker guards the target: after
// `failures` failures in a row it opens, and nothing is sent but one probe every `probeMs`; a
// probe's failure costs no notification a try (the queue waits in the store, its budget kept),
// its success closes the breaker and the lanes drain. Time comes from `clock` (tests inject one).
import { decide } from '../../../api/retry.js';
import { forwarding, type DeliveryPolicy, type Outgoing, type TryResult } from './delivery-policy.js';
import { plural } from '../../../util/plural.js';

export interface Clock {
  now(): number;
  /** Calls `fn` after `ms`; the listener's own timers never keep the process alive. */
  setTimer(ms: number, fn: () => void): { clear(): void };
}

export const REAL_CLOCK: Clock = {
  now: () => Date.now(),
  setTimer: (ms, fn) => {
    const t = setTimeout(fn, ms);
    t.unref();
    return { clear: () => clearTimeout(t) };
  },
};

export interface BreakerPolicy {
  /** Failures in a row (5xx, timeouts, connection errors) that open the breaker. */
  failures: number;
  /** While open, one probe this often. */
  probeMs: number;
}

export const BREAKER_DEFAULTS: BreakerPolicy = { failures: 5, probeMs: 30_000 };

/** A queued notification: its place in the store (`seq`), its lane, what it has spent. */
export interface Entry {
  seq: number;
  lane: string;
  tries: number;
  nextMs: number;
  /** The notification itself when the listener keeps no store (else loaded when sent). */
  item?: Outgoing;
}

export interface LaneStore {
  load(entry: Entry): Outgoing | undefined;
  delivered(entry: Entry, item: Outgoing, status: number): Promise<void>;
  deadLetter(entry: Entry, item: Outgoing, error: string): Promise<void>;
  retryLater(entry: Entry, item: Outgoing, error: string): Promise<void>;
}

export type BreakerState = 'closed' | 'open' | 'half-open';

export interface LanesOptions {
  policy: DeliveryPolicy;
  breaker: BreakerPolicy;
  concurrency: number;
  clock: Clock;
  store: LaneStore;
  send(item: Outgoing, signal: AbortSignal): Promise<TryResult>;
  onBreaker?(state: BreakerState, why: string): void;
  onError?(err: unknown): void;
}

export class ForwardLanes {
  private readonly lanes = new Map<string, Entry[]>();
  private readonly busy = new Map<string, { abort: AbortController; done: Promise<void> }>();
  private state: BreakerState = 'closed';
  private failuresInRow = 0;
  private openedAt = 0;
  private timer: { clear(): void; at: number } | null = null;
  private stopped = false;
  /** Counters for /metrics. */
  readonly counts = { forwarded: 0, retries: 0, deadLetters: 0 };

  constructor(private readonly opts: LanesOptions) {}

  get depth(): number {
    let n = 0;
    for (const lane of this.lanes.values()) n += lane.length;
    return n;
  }

  /** What waits, in lane order (at stop: what a listener without a store could not forward). */
  queued(): Entry[] {
    return [...this.lanes.values()].flat();
  }

  get breaker(): BreakerState {
    return this.state;
  }

  add(entry: Entry): void {
    const lane = this.lanes.get(entry.lane);
    if (lane) lane.push(entry);
    else this.lanes.set(entry.lane, [entry]);
    this.pump();
  }

  /** Starts what may start now; sets a timer for what is due later. */
  pump(): void {
    if (this.stopped) return;
    const now = this.opts.clock.now();
    if (this.state === 'open') {
      if (now < this.openedAt + this.opts.breaker.probeMs)
        return this.wakeAt(this.openedAt + this.opts.breaker.probeMs);
      this.setState('half-open', 'probing the target');
    }
    let soonest = Infinity;
    for (const [key, lane] of this.lanes) {
      if (this.busy.size >= (this.state === 'half-open' ? 1 : this.opts.concurrency)) return;
      if (this.busy.has(key)) continue;
      const head = lane[0]!;
      if (head.nextMs > now) soonest = Math.min(soonest, head.nextMs);
      else this.start(key, head, this.state === 'half-open');
    }
    if (soonest !== Infinity) this.wakeAt(soonest);
  }

  /**
   * Sends nothing new; lets what is in flight finish for up to graceMs, then aborts it. Returns how many stay queued.
   */
  async stop(graceMs: number): Promise<number> {
    this.stopped = true;
    this.timer?.clear();
    const all = Promise.all([...this.busy.values()].map((b) => b.done));
    let t: NodeJS.Timeout | undefined;
    await Promise.race([all, new Promise((r) => (t = setTimeout(r, graceMs)))]);
    clearTimeout(t);
    for (const b of this.busy.values()) b.abort.abort();
    await all;
    return this.depth;
  }

  private wakeAt(at: number): void {
    if (this.timer && this.timer.at <= at) return;
    this.timer?.clear();
    const t = this.opts.clock.setTimer(Math.max(0, at - this.opts.clock.now()), () => {
      this.timer = null;
      this.pump();
    });
    this.timer = { clear: () => t.clear(), at };
  }

  private start(key: string, entry: Entry, probe: boolean): void {
    const abort = new AbortController();
    const done = this.attempt(entry, probe, abort.signal)
      .catch((err: unknown) => this.opts.onError?.(err))
      .finally(() => {
        this.busy.delete(key);
        const lane = this.lanes.get(key);
        if (lane && !lane.length) this.lanes.delete(key);
        this.pump();
      });
    this.busy.set(key, { abort, done });
  }

  private async attempt(entry: Entry, probe: boolean, signal: AbortSignal): Promise<void> {
    const item = entry.item ?? this.opts.store.load(entry);
    if (!item) return void this.shift(entry); // settled meanwhile (a replay)
    const r = await this.opts.send(item, signal);
    if (this.stopped && signal.aborted) return; // stopped mid-try: still queued, no try spent
    if (r.ok) {
      this.succeeded();
      this.shift(entry);
      this.counts.forwarded++;
      return this.opts.store.delivered(entry, item, r.status);
    }
    if (!r.retry) {
      this.succeeded(); // the target answered: it is up, it refused this one
      return this.dead(entry, item, r.error);
    }
    this.failed(r.error);
    if (probe) return; // the breaker's try, not the notification's
    entry.tries++;
    const outcome =
      r.status === undefined
        ? ({ kind: 'error', code: undefined } as const)
        : ({ kind: 'status', status: r.status, retryAfterMs: r.waitMs } as const);
    const d = decide(outcome, { n: entry.tries }, forwarding(this.opts.policy));
    if (!d.again) return this.dead(entry, item, r.error);
    this.counts.retries++;
    entry.nextMs = this.opts.clock.now() + d.delayMs;
    await this.opts.store.retryLater(entry, item, r.error);
  }

  private async dead(entry: Entry, item: Outgoing, error: string): Promise<void> {
    this.shift(entry);
    this.counts.deadLetters++;
    await this.opts.store.deadLetter(entry, item, error);
  }

  private shift(entry: Entry): void {
    const lane = this.lanes.get(entry.lane);
    if (lane?.[0] === entry) lane.shift();
  }

  private succeeded(): void {
    this.failuresInRow = 0;
    if (this.state !== 'closed') this.setState('closed', 'the target answers again');
  }

  private failed(error: string): void {
    this.failuresInRow++;
    if (this.state === 'half-open' || (this.state === 'closed' && this.failuresInRow >= this.opts.breaker.failures)) {
      this.openedAt = this.opts.clock.now();
      this.setState('open', `${plural(this.failuresInRow, 'failure')} in a row, the last: ${error}`);
    }
  }

  private setState(state: BreakerState, why: string): void {
    this.state = state;
    this.opts.onBreaker?.(state, why);
  }
}
