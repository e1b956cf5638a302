// What needs a sandbox that outlives the command: URLs printed for people to open. The embedded
// sandbox of `--sandbox` ends with the command (its state does not: the next command's embedded
// sandbox, or another's at the same time, uses the same file), so those say how to start the
// shared one (`assess sandbox start`).
import type { Context } from '../../context.js';

export const START_SHARED = 'assess sandbox start';

/** After printing URLs of the sandbox: a notice when they died with the embedded sandbox. */
export async function noteEmbeddedUrls(ctx: Context): Promise<void> {
  if (!ctx.globals.sandbox || !(await ctx.connection()).embedded) return;
  ctx.info(
    `The embedded sandbox stops with this command, so its URLs will not answer; for live URLs start a shared one: ` +
      `${START_SHARED}`,
  );
}

/**
 * After a setting the embedded sandbox keeps in memory only (quirks; not its clock or faults,
 * which are in the state file): a warning that it ended with the command, and where it would last.
 */
export async function warnEmbeddedSetting(ctx: Context, what: string, verb: string, serveFlag: string): Promise<void> {
  if (!ctx.globals.sandbox || !(await ctx.connection()).embedded) return;
  ctx.warn(
    `${what} set on the embedded sandbox last only for this command; to keep them, start a shared one ` +
      `(${START_SHARED}) ` +
      `and run 'assess --sandbox sandbox ${verb}' again, or serve one with 'assess sandbox serve ${serveFlag}'`,
  );
}
