// The work `callbacks listen` does after answering a notification (forward it, run --exec)
// waits here, one at a time in arrival order. The queue is bounded by count and by bytes: a
// forward target that hangs must not grow the listener without end (68 MB → 693 MB was seen);
// when full, a notification is dropped with a counted warning. stop() ends it for Ctrl-C: what
// is running gets a short grace, then is aborted; what waits is reported, never run. Work that
// fails (an --exec that cannot start) is warned about and reported too, never swallowed.

export interface QueueLimits {
  maxItems: number;
  maxBytes: number;
}

export interface QueueReport {
  /** Labels of the items that were never done (waiting, or aborted while running). */
  notDone: string[];
  dropped: number;
  /** Labels of the items whose work failed (rejected: an --exec that could not start). */
  failed: string[];
}

export class WorkQueue<T> {
  private readonly waiting: Array<{ item: T; bytes: number; label: string }> = [];
  private bytes = 0;
  private running: { label: string; done: Promise<void>; abort: AbortController } | null = null;
  private stopped = false;
  private readonly failed: string[] = [];
  dropped = 0;

  constructor(
    /** What the queue is for, in messages ("forward", "--exec"). */
    readonly what: string,
    private readonly limits: QueueLimits,
    private readonly work: (item: T, signal: AbortSignal) => Promise<void>,
    private readonly warn: (message: string) => void,
  ) {}

  /** Adds an item unless the queue is full (then it is dropped and counted). */
  push(item: T, bytes: number, label: string): void {
    if (this.stopped) return;
    const busy = this.running ? 1 : 0;
    if (this.waiting.length + busy >= this.limits.maxItems || this.bytes + bytes > this.limits.maxBytes) {
      this.dropped++;
      this.warn(
        `${this.what} queue full (${this.waiting.length} waiting, ${formatBytes(this.bytes)}): dropped ${label}; ` +
          `${this.dropped} dropped so far (raise its queue limits, or fix what hangs)`,
      );
      return;
    }
    this.waiting.push({ item, bytes, label });
    this.bytes += bytes;
    this.next();
  }

  private next(): void {
    if (this.running || this.stopped) return;
    const head = this.waiting.shift();
    if (!head) return;
    this.bytes -= head.bytes;
    const abort = new AbortController();
    const done = this.work(head.item, abort.signal)
      .catch((err: unknown) => {
        this.failed.push(head.label);
        this.warn(`${this.what} for ${head.label}: ${err instanceof Error ? err.message : String(err)}`);
      })
      .finally(() => {
        this.running = null;
        this.next();
      });
    this.running = { label: head.label, done, abort };
  }

  /**
   * Takes nothing new; lets the running item finish for up to graceMs, then aborts it. Resolves
   * with what was not done.
   */
  async stop(graceMs: number): Promise<QueueReport> {
    this.stopped = true;
    const notDone = this.waiting.splice(0).map((w) => w.label);
    this.bytes = 0;
    const current = this.running;
    if (current) {
      let timer: NodeJS.Timeout | undefined;
      const finished = await Promise.race([
        current.done.then(() => true),
        new Promise<boolean>((r) => (timer = setTimeout(() => r(false), graceMs))),
      ]);
      clearTimeout(timer);
      if (!finished) {
        current.abort.abort(new Error('stopped'));
        notDone.unshift(current.label);
        // the work's own abort handling ends it promptly (an --exec: SIGTERM to its process group,
        // SIGKILL 200 ms later if still there); do not wait on it beyond a moment
        await Promise.race([current.done, new Promise((r) => setTimeout(r, 300).unref())]);
      }
    }
    return { notDone, dropped: this.dropped, failed: [...this.failed] };
  }
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(0)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** `16MB`, `512KB`, `1048576` → bytes; undefined when not a size. */
export function parseSize(text: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)\s*(b|kb|k|mb|m|gb|g)?$/i.exec(text.trim());
  if (!m) return undefined;
  const unit = (m[2] ?? 'b').toLowerCase()[0];
  const mult = unit === 'k' ? 1024 : unit === 'm' ? 1024 ** 2 : unit === 'g' ? 1024 ** 3 : 1;
  return Math.round(Number(m[1]) * mult);
}
