// The timer of the sandbox's injected latency (`--latency`): holds each answer until its time on
// the monotonic clock, never releasing one early, and those due together in the order of their
// times. One setTimeout is armed for the earliest time, aimed 1 ms late (Node's timers count whole
// milliseconds from the event loop's cached clock), and the clock is checked again on release.
// A worker thread sleeping in Atomics.wait was tried for sub-millisecond release; on this shared
// 2-core machine it held answers longer, not shorter (mean 1.0–2.2 ms late vs 0.8–1.4 ms), so
// the benchmarks do without it.

/** Milliseconds on the monotonic clock. */
export const monotonicMs = (): number => Number(process.hrtime.bigint()) / 1e6;

interface Pending {
  at: number;
  fn: () => void;
}

export class HoldTimer {
  private readonly pending: Pending[] = [];
  /** The one timer, armed for the earliest time. */
  private timer: NodeJS.Timeout | undefined;

  /** Calls `fn` once the monotonic clock (monotonicMs) has reached `at`; those due together in the order of `at`. */
  at(at: number, fn: () => void): void {
    if (at <= monotonicMs()) return fn();
    const earliest = this.earliest();
    this.pending.push({ at, fn });
    if (at < earliest) this.arm(at);
  }

  /** Releases at once what is still held. */
  close(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    for (const p of this.pending.splice(0).sort((a, b) => a.at - b.at)) p.fn();
  }

  private earliest(): number {
    let min = Infinity;
    for (const p of this.pending) if (p.at < min) min = p.at;
    return min;
  }

  private arm(at: number): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    // never negative: Node warns of a late arm
    if (at !== Infinity) this.timer = setTimeout(() => this.release(), Math.max(1, at - monotonicMs() + 1));
  }

  private release(): void {
    const now = monotonicMs();
    const due = this.pending.filter((p) => p.at <= now).sort((a, b) => a.at - b.at);
    const rest = this.pending.filter((p) => p.at > now);
    this.pending.length = 0;
    this.pending.push(...rest);
    this.arm(this.earliest());
    for (const p of due) p.fn();
  }
}
