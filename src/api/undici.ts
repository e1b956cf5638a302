// The one door to undici, loaded on the first request rather than at start-up: a command that
// sends nothing (config, usage errors, completion) never evaluates it. Built, it is
// dist/vendor/undici.cjs, apart from the program (scripts/build.mjs). undici 7: undici 8 needs
// Node ≥ 22.19, and every supported Node (22.13+) must meet the engines of what it runs.
export type Undici = typeof import('undici');

let loading: Promise<Undici> | undefined;
let loaded: Undici | undefined;

export function loadUndici(): Promise<Undici> {
  return (loading ??= import('undici').then((u) => (loaded = u)));
}

/** undici once loaded, without a turn of the microtask queue (a bulk run's next request goes out at once). */
export function loadedUndici(): Undici | undefined {
  return loaded;
}
