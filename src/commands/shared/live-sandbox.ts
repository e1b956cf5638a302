// What needs a sandbox that outlives the command: URLs printed for people to open, and waiting
// for another command to move an invitation. The embedded sandbox of `--sandbox` ends with the
// command, so those say how to start the shared one (`assess sandbox start`).
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';

export const START_SHARED = 'assess sandbox start';

/** After printing URLs of the sandbox: a notice when they died with the embedded sandbox. */
export async function noteEmbeddedUrls(ctx: Context): Promise<void> {
  if (!ctx.globals.sandbox || !(await ctx.connection()).embedded) return;
  ctx.info(
    `The embedded sandbox stops with this command, so its URLs will not answer; for live URLs start a shared one: ${START_SHARED}`,
  );
}

/**
 * After a setting the embedded sandbox keeps in memory only (faults, quirks; not its clock, which
 * is in the state file): a warning that it ended with the command, and where it would last.
 */
export async function warnEmbeddedSetting(ctx: Context, what: string, verb: string, serveFlag: string): Promise<void> {
  if (!ctx.globals.sandbox || !(await ctx.connection()).embedded) return;
  ctx.warn(
    `${what} set on the embedded sandbox last only for this command; to keep them, start a shared one (${START_SHARED}) ` +
      `and run 'assess --sandbox sandbox ${verb}' again, or serve one with 'assess sandbox serve ${serveFlag}'`,
  );
}

/** Refuses to wait on the embedded sandbox for invitations it has not moved: no other command can change them meanwhile. */
export async function refuseEmbeddedWait(ctx: Context, ids: string[], until: string): Promise<void> {
  if (!ctx.globals.sandbox || !(await ctx.connection()).embedded) return;
  const to = until === 'started' ? 'start' : 'complete';
  throw new UsageError(
    `--sandbox: ${ids.join(', ')} ${ids.length > 1 ? 'have' : 'has'} not reached ${until}, and nothing can move ${ids.length > 1 ? 'them' : 'it'} while this waits: ` +
      'the embedded sandbox lives only as long as this command',
    `start a shared sandbox (${START_SHARED}), run this again, and move it from another terminal: assess --sandbox sandbox simulate ${ids[0]} ${to}`,
  );
}
