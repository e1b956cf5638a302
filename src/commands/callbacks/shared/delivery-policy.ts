// How `callbacks listen --forward-to` and `callbacks replay` deliver a notification: POST of the
// body unchanged (optionally signed, Standard Webhooks), one at a time in arrival order, retried
// with exponential backoff (jittered) on 5xx, 408, 429, timeouts and connection errors; a 4xx, a
// redirect or 508 (Loop Detected: a listener refusing what it forwarded itself) is final. The
// queue is bounded: what does not fit, or still failed after the retries, becomes a dead-letter
// record (the inbox shows them: `callbacks inbox --failed`).
import { decide, repeats, type RetryOperation } from '../../../api/retry.js';
import { FORWARDED_BY } from './self-forward.js';

export interface DeliveryPolicy {
  /** Retries after the first try (0 = one try only). */
  retries: number;
  /** First backoff; doubled per retry, capped by maxBackoffMs. */
  backoffMs: number;
  maxBackoffMs: number;
  /** Per try: connect and answer. */
  timeoutMs: number;
  /** Notifications waiting to be forwarded at most; more are dead-lettered at once. */
  queueSize: number;
  /** Bytes of bodies waiting at most (a hanging target must not grow the listener without end). */
  queueBytes: number;
}

export const POLICY_DEFAULTS: DeliveryPolicy = {
  retries: 5,
  backoffMs: 500,
  maxBackoffMs: 30_000,
  timeoutMs: 10_000,
  queueSize: 1000,
  queueBytes: 64 * 1024 * 1024,
};

/** The policy the `--forward-*` flags give (`callbacks listen`, `callbacks replay`). */
export const policyFrom = (i: {
  forwardRetries: number;
  forwardTimeout: number;
  forwardBackoff: number;
  forwardQueue?: number;
  forwardQueueBytes?: number;
}): DeliveryPolicy => ({
  ...POLICY_DEFAULTS,
  retries: i.forwardRetries,
  timeoutMs: i.forwardTimeout,
  backoffMs: i.forwardBackoff,
  queueSize: i.forwardQueue ?? POLICY_DEFAULTS.queueSize,
  queueBytes: i.forwardQueueBytes ?? POLICY_DEFAULTS.queueBytes,
});

export interface Outgoing {
  /** Its row in the store (absent when the listener keeps no inbox). */
  seq?: number;
  /** webhook-id: stable per notification. */
  id: string;
  invitationId: string | null;
  status: string | null;
  body: Buffer;
  contentType: string;
  /** `assess-forwarded-by`: the listeners it went through, this one last (loop guard: shared/self-forward.ts). */
  forwardedBy?: string;
}

export type Outcome =
  { ok: true; status: number; tries: number; ms: number } | { ok: false; tries: number; error: string };

export interface ForwarderOptions {
  url: string;
  policy: DeliveryPolicy;
  /** Signs each try when set. */
  secret?: string;
  now?: () => Date;
  onOutcome?(item: Outgoing, outcome: Outcome): void;
  /** Records what could not be delivered (the inbox's dead-letter list). */
  onDeadLetter?(item: Outgoing, outcome: { tries: number; error: string }): Promise<void> | void;
  /** Records what was delivered (the inbox's delivery log: a restarted listener does not send it again). */
  onDelivered?(item: Outgoing, outcome: { tries: number }): Promise<void> | void;
  /** What stop() leaves undelivered stays queued (in the store) instead of becoming dead letters. */
  keepOnStop?: boolean;
  /** Test seam: the pause between tries. */
  sleep?(ms: number, signal: AbortSignal): Promise<void>;
}

/** A notification is a `delivery` to the retry policy: the receiver de-duplicates it on its webhook-id. */
const RETRYABLE = (status: number) => repeats({ kind: 'status', status }, 'delivery');

/** The policy's tries and waits, as the one retry policy (src/api/retry.ts) takes them. */
export function forwarding(policy: DeliveryPolicy): RetryOperation {
  const backoff = { baseMs: policy.backoffMs, capMs: policy.maxBackoffMs, retryAfterCapMs: policy.maxBackoffMs };
  return { repeat: 'delivery', maxAttempts: policy.retries + 1, backoff };
}

/** Delay before retry n (1-based): backoff·2^(n-1), capped, with "equal jitter". */
export function backoffFor(n: number, policy: DeliveryPolicy, random = Math.random): number {
  return decide({ kind: 'error', code: undefined }, { n }, { ...forwarding(policy), maxAttempts: Infinity }, random)
    .delayMs;
}

/** Retry-After (seconds or an HTTP date) in ms, or null. */
export function retryAfterMs(value: string | null, now: number): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

const defaultSleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
  });

export class Forwarder {
  private readonly queue: Outgoing[] = [];
  private queuedBytes = 0;
  /** Notifications refused because the queue was full (count in each warning). */
  overflowed = 0;
  private running: Promise<void> | null = null;
  private readonly stopping = new AbortController();
  private readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  private readonly now: () => Date;

  constructor(private readonly opts: ForwarderOptions) {
    this.sleep = opts.sleep ?? defaultSleep;
    this.now = opts.now ?? (() => new Date());
  }

  /** Queues a notification; false (and a dead letter) when the queue is full. */
  enqueue(item: Outgoing): boolean {
    const { queueSize, queueBytes } = this.opts.policy;
    const full = this.queue.length >= queueSize || this.queuedBytes + item.body.length > queueBytes;
    if (this.stopping.signal.aborted && this.opts.keepOnStop) return false; // queued in the store
    if (this.stopping.signal.aborted || full) {
      if (!this.stopping.signal.aborted) this.overflowed++;
      const why = this.stopping.signal.aborted
        ? 'the forwarder was stopping'
        : `forward queue full (${this.queue.length} waiting, ${Math.ceil(this.queuedBytes / 1024)} KB); ` +
          `${this.overflowed} dropped so far`;
      this.opts.onOutcome?.(item, { ok: false, tries: 0, error: why });
      void this.deadLetter(item, { tries: 0, error: why });
      return false;
    }
    this.queue.push(item);
    this.queuedBytes += item.body.length;
    this.running ??= this.loop();
    return true;
  }

  get pending(): number {
    return this.queue.length;
  }

  /** Resolves once everything queued was delivered or dead-lettered. */
  async drain(): Promise<void> {
    while (this.running) await this.running;
  }

  /**
   * Waits up to graceMs for the queue to empty; what is left stays queued (keepOnStop: the store
   * keeps it for the next listener) or is dead-lettered (replay sends it later). Returns how many.
   */
  async stop(graceMs: number): Promise<number> {
    await Promise.race([this.drain(), new Promise((r) => setTimeout(r, graceMs).unref())]);
    this.stopping.abort();
    await this.drain();
    return this.left;
  }

  /** Not delivered because the forwarder stopped. */
  private left = 0;

  /** Sends one notification now, with the policy's retries (replay uses this directly). */
  async deliver(item: Outgoing): Promise<Outcome> {
    const op = forwarding(this.opts.policy);
    let last = '';
    for (let tri = 1; ; tri++) {
      if (this.stopping.signal.aborted)
        return { ok: false, tries: tri - 1, error: `stopped before delivery (${last || 'not tried'})` };
      const r = await this.tryOnce(item);
      if (r.ok) return { ok: true, status: r.status, tries: tri, ms: r.ms };
      last = r.error;
      const outcome =
        r.status === undefined
          ? ({ kind: 'error', code: undefined } as const)
          : ({ kind: 'status', status: r.status, retryAfterMs: r.waitMs } as const);
      const d = decide(outcome, { n: tri }, op);
      if (!r.retry || !d.again) return { ok: false, tries: tri, error: r.error };
      await this.sleep(d.delayMs, this.stopping.signal);
    }
  }

  private async loop(): Promise<void> {
    try {
      for (let item = this.queue.shift(); item; item = this.queue.shift()) {
        this.queuedBytes -= item.body.length;
        const outcome = await this.deliver(item);
        if (!outcome.ok && this.stopping.signal.aborted && this.opts.keepOnStop) {
          this.left++; // still queued in the store
          continue;
        }
        this.opts.onOutcome?.(item, outcome);
        if (!outcome.ok) await this.deadLetter(item, outcome);
        // delivered; were the inbox gone, it is sent again after a restart
        else await Promise.resolve(this.opts.onDelivered?.(item, outcome)).catch(() => undefined);
      }
    } finally {
      // in the same turn as the empty queue was seen: an item enqueued after this starts a new
      // loop (a `.finally()` on the promise ran a turn later, and an item enqueued in between
      // waited for ever)
      this.running = null;
    }
  }

  private async deadLetter(item: Outgoing, outcome: { tries: number; error: string }): Promise<void> {
    try {
      await this.opts.onDeadLetter?.(item, outcome);
    } catch {
      // the inbox is gone (disk full?); the failure was already reported through onOutcome
    }
  }

  private tryOnce(item: Outgoing): Promise<TryResult> {
    const { url, secret, policy } = this.opts;
    return sendOnce({ url, secret, timeoutMs: policy.timeoutMs, now: this.now }, item, this.stopping.signal);
  }
}

export type TryResult =
  | { ok: true; status: number; ms: number }
  | { ok: false; retry: boolean; error: string; waitMs?: number; status?: number };

/** One POST of a notification (signed when `secret` is set); `signal` stops it (answered as not retryable). */
export async function sendOnce(
  to: { url: string; secret?: string; timeoutMs: number; now: () => Date },
  item: Outgoing,
  signal: AbortSignal,
): Promise<TryResult> {
  const started = performance.now();
  const headers: Record<string, string> = {
    'content-type': item.contentType,
    'user-agent': 'assess-callbacks-forward/1',
  };
  if (item.forwardedBy) headers[FORWARDED_BY] = item.forwardedBy;
  if (to.secret) {
    const { signatureHeaders } = await import('./signing.js'); // node:crypto only when signing
    Object.assign(headers, signatureHeaders(to.secret, item.id, item.body, to.now()));
  }
  try {
    const res = await fetch(to.url, {
      method: 'POST',
      headers,
      body: new Uint8Array(item.body),
      redirect: 'manual',
      signal: AbortSignal.any([AbortSignal.timeout(to.timeoutMs), signal]),
    });
    await res.arrayBuffer().catch(() => undefined);
    const ms = Math.round(performance.now() - started);
    if (res.status >= 200 && res.status < 300) return { ok: true, status: res.status, ms };
    const waitMs = retryAfterMs(res.headers.get('retry-after'), Date.now()) ?? undefined;
    const error =
      res.status === 508 ? 'HTTP 508 Loop Detected (the target sent it back to this listener)' : `HTTP ${res.status}`;
    return { ok: false, retry: RETRYABLE(res.status), error, waitMs, status: res.status };
  } catch (err) {
    const e = err as Error & { cause?: { code?: string } };
    if (signal.aborted) return { ok: false, retry: false, error: 'stopped' };
    const why = e.name === 'TimeoutError' ? `no answer within ${to.timeoutMs / 1000} s` : (e.cause?.code ?? e.message);
    return { ok: false, retry: true, error: why };
  }
}
