// The one door to undici, loaded on the first request rather than at start-up: a command that
// sends nothing (config, usage errors, completion) never evaluates it. Built, it is
// dist/vendor/undici.cjs, apart from the program (scripts/build.mjs). undici 7: undici 8 needs
// Node ≥ 22.19, and every supported Node (22.13+) must meet the engines of what it runs.
export type Undici = typeof import('undici');

let loading: Promise<Undici> | undefined;
let loaded: Undici | undefined;

export function loadUndici(): Promise<Undici> {
  if (loading) return loading;
  const restore = hideGlobalHeaders();
  loading = import('undici').then((u) => (loaded = u)).finally(restore);
  return loading;
}

/** undici once loaded, without a turn of the microtask queue (a bulk run's next request goes out at once). */
export function loadedUndici(): Undici | undefined {
  return loaded;
}

// undici's cookie helpers read globalThis.Headers as they load, and that read makes Node compile
// its own copy of undici: ~7 ms of every request. Hidden for the load; Node's class is back on
// first use (through Response, whose read is what loads Node's copy).
function hideGlobalHeaders(): () => void {
  if (!Object.hasOwn(globalThis, 'Headers')) return () => {};
  Reflect.deleteProperty(globalThis, 'Headers');
  const put = (value: unknown) =>
    Object.defineProperty(globalThis, 'Headers', { value, writable: true, configurable: true, enumerable: false });
  return () => {
    if (Object.hasOwn(globalThis, 'Headers')) return;
    Object.defineProperty(globalThis, 'Headers', {
      configurable: true,
      enumerable: false,
      get: () => {
        const nodes = new Response().headers.constructor;
        put(nodes);
        return nodes;
      },
      set: put,
    });
  };
}
