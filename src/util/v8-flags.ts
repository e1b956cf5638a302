// V8 flags for the work a command does: set when it starts sending requests, serving, or running
// a bulk job, not at start-up. Loading `node:v8` (for setFlagsFromString) loads Node's whole
// stream stack with it, ~1.2 ms that a command sending nothing (a usage error, `config list`)
// never needed. The flags, and why (bench/README.md, docs/assumptions.md):
// - `--liftoff-only`: undici parses HTTP with llhttp in WebAssembly, compiled on its first
//   connection; V8 then compiles it again with TurboFan in the background (~30 MiB a CLI run
//   never gets back). Set before undici's first connection.
// - `--semi-space-growth-factor=1`, `--heap-growing-percent=50`: a young generation that stays at
//   its initial size and old-generation limits 1.5× the live size keep a bulk run flat at
//   ~70-80 MiB from 2,000 to 50,000 rows (read at each collection).
// - `--max-opt=1`: baseline code only; TurboFan's memory pays back little in a run that waits on
//   the network. Not for the servers (`sandbox serve`, `callbacks listen`: CPU-bound, they run
//   with V8's defaults until undici is loaded to deliver a callback), nor inside withOptimiser
//   (the check of every CSV row).
//
// V8 stamps a code cache with the flags of the moment and refuses it under other flags. The
// caches in dist/ are made, and taken, under V8's defaults: a run that set these flags sets the
// defaults back (defaultFlags) before it writes a cache, and checks that V8 agrees (a probe cache
// made at start must still be taken), since `--liftoff-only` also turns other flags off.
// The entry (src/main.ts) and the program are two bundles: the state is kept on globalThis.
import { Script } from 'node:vm';

interface FlagState {
  /** The entry asked for the run flags (tests and library use never do). */
  enabled: boolean;
  applied: boolean;
  /** A server keeps the optimising compiler for its whole run. */
  server: boolean;
  /** Baseline code only at the moment. */
  restricted: boolean;
}

const KEY = Symbol.for('assess.v8-flags');
const state = ((globalThis as Record<symbol, FlagState | undefined>)[KEY] ??= { enabled: false, applied: false, server: false, restricted: false });

const WORK_FLAGS = ['--liftoff-only', '--semi-space-growth-factor=1', '--heap-growing-percent=50'];
// `--max-opt=1` turns `--turbofan` off (a V8 implication) only while `--turbofan` was never set:
// lifting and restricting again set both.
const RESTRICT = ['--max-opt=1', '--no-turbofan'];
const LIFT = ['--max-opt=999', '--turbofan'];
// V8's defaults for every flag the above set, implications included (`--liftoff-only` turns
// off `--wasm-tier-up` and `--wasm-dynamic-tiering`).
const DEFAULTS = ['--no-liftoff-only', '--wasm-tier-up', '--wasm-dynamic-tiering', '--semi-space-growth-factor=2', '--heap-growing-percent=0', ...LIFT];

const setFlags = (flags: string[]) => {
  const { setFlagsFromString } = process.getBuiltinModule('node:v8');
  for (const f of flags) setFlagsFromString(f);
};

/** The built CLI's entry: the run flags are to be set when the work starts. */
export function enableRunFlags(): void {
  state.enabled = true;
}

/** Before the first request (src/api/undici.ts) or a bulk job: the flags above, once. */
export function applyRunFlags(): void {
  if (!state.enabled || state.applied) return;
  setFlags(state.server ? WORK_FLAGS : [...WORK_FLAGS, ...RESTRICT]);
  state.applied = true;
  state.restricted = !state.server;
}

/**
 * A server: the optimising compiler for the whole run (the run flags, should undici be loaded
 * to deliver a callback, come without the restriction). Nothing is set now: a usage error of
 * `sandbox serve` need not load node:v8 either.
 */
export function serverFlags(): void {
  state.server = true;
  if (state.restricted) {
    setFlags(LIFT);
    state.restricted = false;
  }
}

/** `work` with the optimising compiler, then baseline code (with the run flags set). */
export async function withOptimiser<T>(work: () => Promise<T>): Promise<T> {
  applyRunFlags();
  if (!state.restricted) return work();
  setFlags(LIFT);
  state.restricted = false;
  try {
    return await work();
  } finally {
    setFlags(RESTRICT);
    state.restricted = true;
  }
}

/**
 * `load` under V8's default flags, then the run's flags again: a bundle with a code cache made
 * under the defaults (undici's, loaded after a bulk invite has set the flags for its check), and
 * the Node modules it requires, are then taken from their caches instead of compiled.
 */
export async function underDefaultFlags<T>(load: () => Promise<T>): Promise<T> {
  if (!state.applied) return load();
  const restricted = state.restricted;
  setFlags(DEFAULTS);
  try {
    return await load();
  } finally {
    setFlags(restricted ? [...WORK_FLAGS, ...RESTRICT] : WORK_FLAGS);
  }
}

/** A cache of a one-line script made now, while V8's flags are its defaults (see below). */
export function flagProbe(): Buffer {
  return new Script('0', { filename: 'assess-flag-probe' }).createCachedData();
}
// A script compiled again under the same name comes from V8's in-process compilation cache,
// and its code cache is never looked at: each check has a name of its own.
let checks = 0;

/**
 * V8's default flags again, before a code cache is written; false when V8 refuses `probe` (made
 * by flagProbe at start), i.e. the flags could not be set back and a cache written now would be
 * refused by the next run.
 */
export function defaultFlags(probe: Buffer): boolean {
  if (state.applied) {
    setFlags(DEFAULTS);
    state.applied = false;
    state.restricted = false;
  }
  return !new Script('0', { filename: `assess-flag-probe-${++checks}`, cachedData: probe }).cachedDataRejected;
}
