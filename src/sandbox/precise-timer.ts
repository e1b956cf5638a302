// Sub-millisecond timing for the sandbox's injected latency. Node's timers count in whole
// milliseconds from the event loop's cached clock, and timers due in the same millisecond fire
// together: answers held for `--latency 20ms` left 0–2 ms late and in bunches, which no client
// could tell apart from its own slowness (curl reached 93 % of the concurrency × latency bound).
// Here a worker thread sleeps in Atomics.wait until the earliest deadline (a futex wait, precise
// to tens of microseconds) and wakes the event loop with a message; the loop then releases
// every answer whose time has come, never one early. Without worker threads, setTimeout.
import { Worker } from 'node:worker_threads';

/** Milliseconds on the monotonic clock, the same in every thread. */
export const preciseNow = (): number => Number(process.hrtime.bigint()) / 1e6;

// The worker: Int32 [0] is bumped by the loop whenever the earliest deadline changes (or to
// stop); Float64 [1] is that deadline (Infinity when nothing waits). It posts one message per
// deadline reached, then sleeps until the loop has set the next one.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const seq = new Int32Array(workerData, 0, 1);
const at = new Float64Array(workerData, 8, 1);
const now = () => Number(process.hrtime.bigint()) / 1e6;
for (;;) {
  const s = Atomics.load(seq, 0);
  if (s < 0) break;
  const wait = at[0] - now();
  if (wait <= 0) {
    parentPort.postMessage(s);
    Atomics.wait(seq, 0, s);
  } else Atomics.wait(seq, 0, s, wait === Infinity ? undefined : wait);
}
`;

interface Pending {
  at: number;
  fn: () => void;
}

export class PreciseTimer {
  private readonly pending: Pending[] = [];
  private shared: { seq: Int32Array; at: Float64Array; worker: Worker } | null | undefined;
  /** The fallback's one timer, armed for the earliest time. */
  private fallback: NodeJS.Timeout | undefined;

  /** `worker: false` uses setTimeout only (tests of the fallback). */
  constructor(opts: { worker?: boolean } = {}) {
    if (opts.worker === false) this.shared = null;
  }

  /** Calls `fn` once the monotonic clock (preciseNow) has reached `at`; those due together in the order of `at`. */
  at(at: number, fn: () => void): void {
    if (at <= preciseNow()) return fn();
    const earliest = this.earliest();
    this.pending.push({ at, fn });
    if (at < earliest) this.arm(at);
  }

  /** Stops the worker; answers still held are released at once. */
  close(): void {
    const s = this.shared;
    if (s) {
      this.shared = undefined; // a later at() starts a new worker
      Atomics.store(s.seq, 0, -1);
      Atomics.notify(s.seq, 0);
      void s.worker.terminate();
    }
    clearTimeout(this.fallback);
    for (const p of this.pending.splice(0).sort((a, b) => a.at - b.at)) p.fn();
  }

  private earliest(): number {
    let min = Infinity;
    for (const p of this.pending) if (p.at < min) min = p.at;
    return min;
  }

  private arm(at: number): void {
    const s = this.start();
    if (s) {
      s.at[0] = at;
      Atomics.add(s.seq, 0, 1);
      Atomics.notify(s.seq, 0);
      return;
    }
    clearTimeout(this.fallback);
    this.fallback = undefined;
    // Node's timer can fire up to ~1 ms early: aim 1 ms late (release() checks the clock anyway)
    if (at !== Infinity) this.fallback = setTimeout(() => this.release(), at - preciseNow() + 1);
  }

  private start() {
    if (this.shared !== undefined) return this.shared;
    try {
      const buffer = new SharedArrayBuffer(16);
      const worker = new Worker(WORKER, { eval: true, workerData: buffer, stdout: false, stderr: false });
      worker.unref(); // never what keeps the sandbox's process alive
      const s = { seq: new Int32Array(buffer, 0, 1), at: new Float64Array(buffer, 8, 1), worker };
      s.at[0] = Infinity;
      worker.on('message', () => this.release());
      // a worker that fails or ends (not closed by us): setTimeout from now on, held answers too
      const fallBack = () => {
        if (this.shared !== s) return;
        this.shared = null;
        this.arm(this.earliest());
      };
      worker.on('error', fallBack);
      worker.on('exit', fallBack);
      this.shared = s;
    } catch {
      this.shared = null;
    }
    return this.shared;
  }

  private release(): void {
    const now = preciseNow();
    const due = this.pending.filter((p) => p.at <= now).sort((a, b) => a.at - b.at);
    const rest = this.pending.filter((p) => p.at > now);
    this.pending.length = 0;
    this.pending.push(...rest);
    this.arm(this.earliest());
    for (const p of due) p.fn();
  }
}
