// A setting of the sandbox kept as one JSON value: in its state (the `faults` table, shared by
// every process on the state and kept across restarts), or in memory (a fault injector made on
// its own, as in a unit test).
import type * as z from 'zod/mini';
import type { Store } from './store.js';
import { readDoc } from './stored.js';

export interface Kept<T> {
  get(): T | undefined;
  set(value: T | undefined): void;
  /** Resolves once what set() wrote has committed. */
  saved(): Promise<void>;
}

export function inMemory<T>(): Kept<T> {
  let value: T | undefined;
  return { get: () => value, set: (v) => void (value = v), saved: () => Promise.resolve() };
}

/**
 * Read once a turn (every service request asks for the faults), as the other processes left it,
 * and checked with `schema`.
 */
export function inState<T>(store: Store, kind: string, schema: z.ZodMiniType<T>): Kept<T> {
  const key = `kept:${kind}`;
  return {
    get: () =>
      store.once(key, () => {
        const row = store.row('SELECT doc FROM faults WHERE kind = ?', kind);
        return row ? readDoc(schema, row.doc, `faults (${kind})`) : undefined;
      }),
    set: (v) => {
      store.forget(key);
      if (v === undefined) store.exec('DELETE FROM faults WHERE kind = ?', kind);
      else
        store.exec(
          'INSERT INTO faults (kind, doc) VALUES (?, ?) ON CONFLICT (kind) DO UPDATE SET doc = excluded.doc',
          kind,
          JSON.stringify(v),
        );
    },
    saved: () => store.flush(),
  };
}
