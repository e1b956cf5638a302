// The one door to undici, loaded on the first request rather than at start-up: a command that
// sends nothing (config, usage errors, completion) never evaluates it, nor (built) reads it:
// it is dist/undici.cjs, apart from the program (src/util/import-package.ts).
//
// undici's cookie helpers read `globalThis.Headers` while undici loads, and Node's getter for
// that global loads Node's own bundled copy of undici (~17 ms of a command's start-up) for a
// class we never use. The global is hidden for the moment undici's modules are evaluated and then
// restored as Node's lazy getter, so later code sees the usual global. Nothing of undici is
// touched: if a future undici stops reading the global, this only stops saving time.
import { importUndici } from '../util/import-package.js';
import { applyRunFlags, underDefaultFlags } from '../util/v8-flags.js';

export type Undici = typeof import('undici');

let loading: Promise<Undici> | undefined;
let loaded: Undici | undefined;

export function loadUndici(): Promise<Undici> {
  // undici's code (and Node's modules it requires) under V8's default flags, which its cache was
  // made under; the run's flags after, before its first connection compiles the HTTP parser
  // (src/util/v8-flags.ts)
  return (loading ??= underDefaultFlags(importWithoutGlobalHeaders).then((u) => {
    applyRunFlags();
    return (loaded = u);
  }));
}

/** undici once loaded, without a turn of the microtask queue (a bulk run's next request goes out at once). */
export function loadedUndici(): Undici | undefined {
  return loaded;
}

async function importWithoutGlobalHeaders(): Promise<Undici> {
  const saved = Object.getOwnPropertyDescriptor(globalThis, 'Headers');
  if (!saved?.configurable) return importUndici();
  Object.defineProperty(globalThis, 'Headers', { value: undefined, configurable: true, writable: true });
  try {
    return await importUndici();
  } finally {
    Object.defineProperty(globalThis, 'Headers', saved);
  }
}
