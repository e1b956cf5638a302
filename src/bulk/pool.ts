// Bounded concurrency over a (possibly streamed) source. Written here rather than taken from
// p-limit because the source is an async iterable read lazily (50,000 CSV rows must not become
// 50,000 queued promises) and because stopping means "take no new item, let in-flight ones
// finish" — both are a few lines around a plain loop.
//
// The next request must not wait on work that is not the service's. A worker gives its slot
// back as soon as its exchange with the service is over (`release`), before it writes the
// outcome down; the pool then starts the next item at once, because that item was read from the
// source ahead of time — after the last request went out (setImmediate), so that reading and
// checking a CSV row never runs between an answer and the next request.

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
 * journal); calling it again, or not at all, is fine: the slot is free when the worker settles.
 */
export type Release = () => void;

/**
 * Runs `worker` on each item with at most `concurrency` holding a slot at once. Workers report
 * per-item failures themselves; a worker that throws stops the pool (no new items), and the
 * first such error is thrown once the in-flight items have settled.
 */
export async function runPool<T>(
  source: AsyncIterable<T> | Iterable<T>,
  opts: PoolOptions,
  worker: (item: T, release: Release) => Promise<void>,
): Promise<PoolResult> {
  const limit = Math.max(1, Math.floor(opts.concurrency));
  const running = new Set<Promise<void>>();
  let held = 0;
  let wake: (() => void) | undefined;
  let failure: { err: unknown } | null = null;
  let started = 0;
  let exhausted = false;
  const iterator = (Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : source[Symbol.iterator]()) as AsyncIterator<T> | Iterator<T>;
  const halted = () => failure !== null || opts.signal?.aborted === true;
  const slotFreed = () => new Promise<void>((resolve) => (wake = resolve));
  /** The next item, read once this turn of the event loop is over. */
  const readAhead = () => {
    const next = new Promise<void>((resolve) => setImmediate(resolve)).then(() => iterator.next());
    next.catch(() => undefined); // a failed read is thrown where it is awaited, not reported as unhandled
    return next;
  };

  let ahead: Promise<IteratorResult<T>> | undefined;
  try {
    while (!halted()) {
      ahead ??= readAhead();
      // a worker that stays on past its release (writing its outcome) must not pile up unbounded
      if (held >= limit || running.size >= 2 * limit) {
        await slotFreed();
        continue;
      }
      const next = await ahead;
      ahead = undefined;
      if (next.done) {
        exhausted = true;
        break;
      }
      if (halted()) break; // aborted while the source was being read: do not start it
      started++;
      held++;
      let holding = true;
      const release = () => {
        if (!holding) return;
        holding = false;
        held--;
        wake?.();
      };
      const p: Promise<void> = worker(next.value, release)
        .catch((err) => {
          failure ??= { err };
        })
        .finally(() => {
          running.delete(p);
          release();
          wake?.(); // the bound on running workers, or a failure, to notice
        });
      running.add(p);
    }
  } finally {
    await Promise.allSettled(running);
    // an item read ahead and never started is dropped, as is any item after a stop
    await ahead?.catch(() => undefined);
    if (halted()) await iterator.return?.();
  }
  if (failure) throw (failure as { err: unknown }).err;
  return { started, stopped: !exhausted && opts.signal?.aborted === true };
}
