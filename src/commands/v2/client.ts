// What every v2 command path shares: the v2 client behind a one-line deprecation notice (off
// with `assess config set v2.warn false`), and the refusal of commands that have no v2 operation.
import type { V2Client } from '../../api/v2.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';

export const DEPRECATION =
  'the v2 API is deprecated; v3 replaces it (docs/v2-to-v3.md; links: assess links migrate). Hide this: assess config set v2.warn false';

async function warnEnabled(ctx: Context): Promise<boolean> {
  try {
    return (await ctx.config()).profile(ctx.globals.profile).v2Warn !== false;
  } catch {
    return true; // an unreadable config is reported by commands that need it; warn meanwhile
  }
}

/** The v2 client; prints the deprecation notice on stderr first (once per command). */
export async function v2Client(ctx: Context): Promise<V2Client> {
  if (await warnEnabled(ctx)) ctx.warn(DEPRECATION);
  return ctx.apiV2();
}

/** For commands without a v2 operation: exit 2 before anything is sent. */
export function refuseV2(ctx: Context, command: string, why: string): void {
  if (ctx.globals.api !== 'v2') return;
  const from = ctx.globals.apiExplicit ? '--api v2' : `profile '${ctx.globals.profile}' (api: v2)`;
  throw new UsageError(
    `${command}: not available in the v2 API (${why}); it needs v3, but ${from} selects v2`,
    ctx.globals.apiExplicit ? `run it without --api v2 (v3 is the default)` : `add --api v3 to this command, or: assess config set api v3`,
  );
}
