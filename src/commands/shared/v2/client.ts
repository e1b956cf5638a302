// What every v2 command path shares: the v2 client behind a one-line deprecation notice (off
// with `assess config set v2.warn false`). Which commands have a v2 side, and the refusal of
// those that have none, is declared in each command's `v2` (src/cli/command.ts).
import type { V2Client } from '../../../api/v2.js';
import type { Context } from '../../../context.js';
import { manualPath } from '../../../util/manuals.js';

const deprecation = () =>
  `the v2 API is deprecated; v3 replaces it (${manualPath('v2-to-v3.md')}; links: assess links migrate). Hide this: ` +
  `assess config set v2.warn false`;

async function warnEnabled(ctx: Context): Promise<boolean> {
  try {
    return (await (await ctx.config()).profile(ctx.globals.profile)).v2Warn !== false;
  } catch {
    return true; // an unreadable config is reported by commands that need it; warn meanwhile
  }
}

/** The v2 client; prints the deprecation notice on stderr first (once per command). */
export async function v2Client(ctx: Context): Promise<V2Client> {
  if (await warnEnabled(ctx)) ctx.warn(deprecation());
  return ctx.apiV2();
}
