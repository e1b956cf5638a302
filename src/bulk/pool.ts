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
  const limit = Math.max(1, Math.floor(opts.concurrency));
  const running = new Set<Promise<void>>();
  /** Workers started and not settled (counted before a worker runs: it may release at once). */
  let alive = 0;
  let held = 0;
  let failure: { err: unknown } | null = null;
  let started = 0;
  let exhausted = false;
  /** An item read from the source and not started yet (a slot was not free). */
  let ready: { value: T } | undefined;
  let reading: Promise<void> | undefined;
  let wake: (() => void) | undefined;
  const iterator = (Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : source[Symbol.iterator]()) as
    AsyncIterator<T> | Iterator<T>;
  const halted = () => failure !== null || opts.signal?.aborted === true;
  const notify = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

  /** Reads the next item once this turn of the event loop is over. */
  const readAhead = () => {
    if (reading || ready || exhausted || halted()) return;
    reading = turn()
      .then(() => iterator.next())
      .then(
        (r) => {
          if (r.done) exhausted = true;
          else ready = { value: r.value };
        },
        (err: unknown) => {
          failure ??= { err };
        },
      )
      .finally(() => {
        reading = undefined;
        startReady();
        notify();
      });
  };

  /** Starts the item read ahead if a slot is free, then reads the next one. */
  const startReady = () => {
    if (ready && !halted() && held < limit && alive < 2 * limit) {
      const { value } = ready;
      ready = undefined;
      start(value);
    }
    readAhead();
  };

  const start = (item: T) => {
    started++;
    alive++;
    held++;
    let holding = true;
    const giveBack = () => {
      if (!holding) return false;
      holding = false;
      held--;
      startReady();
      notify();
      return true;
    };
    const p: Promise<void> = worker(item, () => (giveBack() ? turn() : Promise.resolve()))
      .catch((err: unknown) => {
        failure ??= { err };
      })
      .finally(() => {
        running.delete(p);
        alive--;
        giveBack();
        startReady(); // the bound on running workers may have held the ready item back
        notify(); // a failure, or the end, to notice
      });
    running.add(p);
  };

  try {
    startReady();
    while (!halted() && !exhausted) await new Promise<void>((resolve) => (wake = resolve));
  } finally {
    while (running.size) await Promise.allSettled([...running]);
    // an item read ahead and never started is dropped, as is any item after a stop
    await reading;
    if (halted()) await iterator.return?.();
  }
  if (failure) throw (failure as { err: unknown }).err;
  return { started, stopped: !exhausted && opts.signal?.aborted === true };
}
