// Bounded concurrency over a (possibly streamed) source. Written here rather than taken from
// p-limit because the source is an async iterable read lazily (50,000 CSV rows must not become
// 50,000 queued promises) and because stopping means "take no new item, let in-flight ones
// finish" — both are a few lines around a plain loop.
//
// The next request must not wait on work that is not the service's. A worker gives its slot
// back as soon as its exchange with the service is over (`release`), before it writes the
// outcome down, and the pool starts the next item inside that call, because the item was read
// from the source ahead of time — after the last request went out (setImmediate), so that
// reading and checking a CSV row never runs between an answer and the next request. The worker
// then waits one turn of the event loop (the promise `release` returns) before writing its
// outcome: undici writes a request on a kept-alive connection only after such a turn (it first
// lets the connection report a close), and what runs before that turn delays the request.

export interface PoolOptions {
  concurrency: number;
  /** When aborted, no new item is taken; in-flight items run to completion. */
  signal?: AbortSignal;
}

export interface PoolResult {
  /** Items handed to the worker. */
  started: number;
  /** True when the signal stopped the pool before the source was exhausted. */
  stopped: boolean;
}

/**
 * Gives the worker's slot back early (once its request is answered, before it writes the
 * outcome) and starts the next item at once when one is ready; calling it again, or not at all,
 * is fine: the slot is free when the worker settles. The first call resolves one turn of the
 * event loop later, when the request it started has gone out; later calls at once.
 */
export type Release = () => Promise<void>;

/**
 * Runs `worker` on each item with at most `concurrency` holding a slot at once (and at most
 * twice that still running). Workers report per-item failures themselves; a worker that throws
 * stops the pool (no new items), and the first such error is thrown once the in-flight items
 * have settled.
 */
export async function runPool<T>(
  source: AsyncIterable<T> | Iterable<T>,
  opts: PoolOptions,
  worker: (item: T, release: Release) => Promise<void>,
): Promise<PoolResult> {
  return new Pool(source, opts, worker).run();
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** One run of `runPool`: the source's iterator, the slots, the item read ahead and the first failure. */
class Pool<T> {
  private readonly limit: number;
  private readonly running = new Set<Promise<void>>();
  private readonly iterator: AsyncIterator<T> | Iterator<T>;
  /** Workers started and not settled (counted before a worker runs: it may release at once). */
  private alive = 0;
  private held = 0;
  private failure: { err: unknown } | null = null;
  private started = 0;
  private exhausted = false;
  /** An item read from the source and not started yet (a slot was not free). */
  private ready: { value: T } | undefined;
  private reading: Promise<void> | undefined;
  private wake: (() => void) | undefined;

  constructor(
    source: AsyncIterable<T> | Iterable<T>,
    private readonly opts: PoolOptions,
    private readonly worker: (item: T, release: Release) => Promise<void>,
  ) {
    this.limit = Math.max(1, Math.floor(opts.concurrency));
    this.iterator = (Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : source[Symbol.iterator]()) as
      AsyncIterator<T> | Iterator<T>;
  }

  async run(): Promise<PoolResult> {
    try {
      this.startReady();
      while (!this.halted() && !this.exhausted) await new Promise<void>((resolve) => (this.wake = resolve));
    } finally {
      while (this.running.size) await Promise.allSettled([...this.running]);
      // an item read ahead and never started is dropped, as is any item after a stop
      await this.reading;
      if (this.halted()) await this.iterator.return?.();
    }
    if (this.failure) throw this.failure.err;
    return { started: this.started, stopped: !this.exhausted && this.opts.signal?.aborted === true };
  }

  private halted(): boolean {
    return this.failure !== null || this.opts.signal?.aborted === true;
  }

  private notify(): void {
    const w = this.wake;
    this.wake = undefined;
    w?.();
  }

  /** Reads the next item once this turn of the event loop is over. */
  private readAhead(): void {
    if (this.reading || this.ready || this.exhausted || this.halted()) return;
    this.reading = turn()
      .then(() => this.iterator.next())
      .then(
        (r) => {
          if (r.done) this.exhausted = true;
          else this.ready = { value: r.value };
        },
        (err: unknown) => {
          this.failure ??= { err };
        },
      )
      .finally(() => {
        this.reading = undefined;
        this.startReady();
        this.notify();
      });
  }

  /** Starts the item read ahead if a slot is free, then reads the next one. */
  private startReady(): void {
    if (this.ready && !this.halted() && this.held < this.limit && this.alive < 2 * this.limit) {
      const { value } = this.ready;
      this.ready = undefined;
      this.start(value);
    }
    this.readAhead();
  }

  private start(item: T): void {
    this.started++;
    this.alive++;
    this.held++;
    let holding = true;
    const giveBack = () => {
      if (!holding) return false;
      holding = false;
      this.held--;
      this.startReady();
      this.notify();
      return true;
    };
    const p: Promise<void> = this.worker(item, () => (giveBack() ? turn() : Promise.resolve()))
      .catch((err: unknown) => {
        this.failure ??= { err };
      })
      .finally(() => {
        this.running.delete(p);
        this.alive--;
        giveBack();
        this.startReady(); // the bound on running workers may have held the ready item back
        this.notify(); // a failure, or the end, to notice
      });
    this.running.add(p);
  }
}
