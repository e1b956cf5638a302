// The API client of a bulk command. Unlike ctx.api() it is NOT tied to the SIGINT signal:
// Ctrl-C stops the pool from taking new items, but requests already sent are allowed to
// finish, so their outcome reaches the journal (a second Ctrl-C kills the process).
// One client = one transport = one Pace (src/api/pace.ts): the run finds the service's rate from
// its 429s and keeps to it; `--rate` caps it; `--concurrency` is the ceiling of requests in flight.
import { Pace } from '../api/pace.js';
import type { V3Client } from '../api/v3.js';
import { type Context, debugSink } from '../context.js';

export const DEFAULT_CONCURRENCY = 8;

export async function bulkClient(ctx: Context, pace: Pace = new Pace()): Promise<V3Client> {
  const { v3ClientOf } = await import('../api/clients.js');
  return v3ClientOf(await ctx.connection(), {
    debug: debugSink(ctx),
    // said once per operation and problem, not once per row
    warn: (line: string) => ctx.warn(line),
    gate: pace,
    pool: ctx.keepAlive,
  });
}

/** `--concurrency`, else the profile's `concurrency`, else 8. */
export async function defaultConcurrency(ctx: Context): Promise<number> {
  try {
    return (await (await ctx.config()).profile(ctx.globals.profile)).concurrency ?? DEFAULT_CONCURRENCY;
  } catch {
    return DEFAULT_CONCURRENCY; // a broken config file is reported by the commands that need it
  }
}
