// Waiting for a condition in tests: poll with a bounded deadline instead of sleeping a fixed time.
// The default bound is generous: it is only how long a hang takes to be reported, and on a busy
// machine starting a process alone can take many seconds.
export async function waitFor<T>(
  check: () => T | Promise<T>,
  opts: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<NonNullable<T>> {
  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  for (;;) {
    const v = await check();
    if (v) return v as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${opts.what ?? 'a condition'}`);
    await new Promise((r) => setTimeout(r, opts.intervalMs ?? 25));
  }
}
