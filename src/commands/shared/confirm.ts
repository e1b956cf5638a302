// One rule for questions, everywhere (issue: "Ctrl-C and 'no' answered three ways"):
//   --yes            → go on without asking
//   no terminal      → exit 2 naming --yes (nothing is sent)
//   "no"             → false: the command says "Nothing changed." and exits 0
//   Ctrl-C / Esc     → exit 130, quietly (the prompt error is mapped in src/cli/program.ts)
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';

/** Throws the usage error when a question would be needed but cannot be asked (call it early). */
export function requireConfirmable(ctx: Context, what: string): void {
  if (!ctx.globals.yes && !ctx.globals.interactive)
    throw new UsageError(`--yes: ${what} needs confirmation and there is no terminal to ask on`, 'run it again with --yes to confirm');
}

export async function confirmAction(ctx: Context, question: string, what: string): Promise<boolean> {
  if (ctx.globals.yes) return true;
  requireConfirmable(ctx, what);
  const { confirm } = await import('@inquirer/prompts');
  return confirm({ message: question, default: false }, { input: ctx.io.stdin, output: ctx.io.stderr, signal: ctx.signal });
}

/** What every command says after a "no". */
export function nothingChanged(ctx: Context): void {
  ctx.info('Nothing changed.');
}
