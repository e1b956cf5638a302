// The CLI runs its JavaScript without V8's optimising compiler (`--max-opt=1`, set by
// src/main.ts): a run waits on the network, and TurboFan's memory is most of what a bulk run
// would otherwise add (docs/assumptions.md). The exceptions are CPU-bound: the servers
// (`sandbox serve`, `callbacks listen`) for their whole run, and the check of every row of
// `invite --from-csv` (dry run or not), which takes a third of the time with TurboFan: nothing
// is sent before it ends (20,000 rows: ~0.4 s sooner, ~5 MiB more at the peak: bench/README.md).
//
// `--max-opt=1` also turns `--turbofan` off (a V8 flag implication), so raising `--max-opt`
// alone brings nothing back: lifting sets both. Restoring sets both back explicitly, so the
// flags match those the code cache was made under again and the cache saved at the end of the
// run is one the next run takes (V8 stamps a cache with the flags' values).
const RESTRICTED = Symbol.for('assess.optimiser-restricted');
const state = globalThis as Record<symbol, unknown>;
const setFlags = (flags: string[]) => {
  const { setFlagsFromString } = process.getBuiltinModule('node:v8');
  for (const f of flags) setFlagsFromString(f);
};

/** The built CLI's start (src/main.ts): baseline code only. */
export function restrictOptimiser(): void {
  setFlags(['--max-opt=1']);
  state[RESTRICTED] = true;
}

/** The optimising compiler back, for the rest of the run (a server). */
export function liftOptimiser(): void {
  setFlags(['--max-opt=999', '--turbofan']);
  state[RESTRICTED] = false;
}

/** `work` with the optimising compiler, then baseline code again; as is where it was never restricted (tests, tsx). */
export async function withOptimiser<T>(work: () => Promise<T>): Promise<T> {
  if (!state[RESTRICTED]) return work();
  setFlags(['--max-opt=999', '--turbofan']);
  try {
    return await work();
  } finally {
    setFlags(['--max-opt=1', '--no-turbofan']);
  }
}
