// Bounded concurrency over a (possibly streamed) source. Written here rather than taken from
// p-limit because the source is an async iterable read lazily (50,000 CSV rows must not become
// 50,000 queued promises) and because stopping means "take no new item, let in-flight ones
// finish" — both are a few lines around a plain loop.

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
 * Runs `worker` on each item with at most `concurrency` running at once. Workers report
 * per-item failures themselves; a worker that throws stops the pool (no new items), and the
 * first such error is thrown once the in-flight items have settled.
 */
export async function runPool<T>(source: AsyncIterable<T> | Iterable<T>, opts: PoolOptions, worker: (item: T) => Promise<void>): Promise<PoolResult> {
  const limit = Math.max(1, Math.floor(opts.concurrency));
  const running = new Set<Promise<void>>();
  let failure: { err: unknown } | null = null;
  let started = 0;
  let exhausted = false;
  const iterator = (Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : source[Symbol.iterator]()) as AsyncIterator<T> | Iterator<T>;
  const halted = () => failure !== null || opts.signal?.aborted === true;

  try {
    while (!halted()) {
      if (running.size >= limit) {
        await Promise.race(running);
        continue;
      }
      const next = await iterator.next();
      if (next.done) {
        exhausted = true;
        break;
      }
      if (halted()) break; // aborted while the source was being read: do not start it
      started++;
      const p: Promise<void> = worker(next.value)
        .catch((err) => {
          failure ??= { err };
        })
        .finally(() => running.delete(p));
      running.add(p);
    }
  } finally {
    await Promise.allSettled(running);
    if (halted()) await iterator.return?.();
  }
  if (failure) throw (failure as { err: unknown }).err;
  return { started, stopped: !exhausted && opts.signal?.aborted === true };
}
