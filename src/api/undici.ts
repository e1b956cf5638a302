// The one door to undici, loaded on the first request rather than at start-up: a command that
// sends nothing (config, usage errors, completion) never evaluates it. Built, it is
// dist/vendor/undici.cjs, apart from the program (scripts/build.mjs).
// undici 8 needs Node ≥ 22.19; an older Node (20 is end-of-life) gets undici 7
// (dist/vendor/undici-node20.cjs), whose API is the same for what this CLI uses. undici 8 loads
// ~15 ms of CPU sooner on Node 24: undici 7 reads Node's global Headers while loading, which makes
// Node load its own internal copy of undici (bench/README.md). Delete the alias with Node 20.
export type Undici = typeof import('undici');

let loading: Promise<Undici> | undefined;
let loaded: Undici | undefined;

export function loadUndici(): Promise<Undici> {
  return (loading ??= (
    supportsUndici8() ? import('undici') : (import('undici-node20') as unknown as Promise<Undici>)
  ).then((u) => (loaded = u)));
}

/** undici once loaded, without a turn of the microtask queue (a bulk run's next request goes out at once). */
export function loadedUndici(): Undici | undefined {
  return loaded;
}

/** undici 8's engines: Node ≥ 22.19. */
export function supportsUndici8(version = process.versions.node): boolean {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major > 22 || (major === 22 && minor >= 19);
}
