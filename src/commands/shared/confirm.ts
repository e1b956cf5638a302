// One rule for questions, everywhere (issue: "Ctrl-C and 'no' answered three ways"):
//   --yes            → go on without asking
//   no terminal, --no-input or CI → exit 2 naming --yes and which (nothing is sent)
//   "no"             → false: the command says "Nothing changed." and exits 0
//   Ctrl-C / Esc     → exit 130, quietly (the prompt error is mapped in src/cli/report-error.ts)
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';

/** Why no question can be asked: --no-input, CI, or no terminal (the three things that turn questions off). */
export function whyNoQuestions(ctx: Context): string {
  if (!ctx.io.stdinIsTTY || !ctx.io.stderrIsTTY) return 'there is no terminal to ask on';
  return ctx.env.CI ? 'CI is set (no questions in CI)' : '--no-input was given';
}

/** Throws the usage error when a question would be needed but cannot be asked (call it early). */
export function requireConfirmable(ctx: Context, what: string): void {
  if (!ctx.globals.yes && !ctx.globals.interactive)
    throw new UsageError(
      `--yes: ${what} needs confirmation and ${whyNoQuestions(ctx)}`,
      'run it again with --yes to confirm',
    );
}

export async function confirmAction(ctx: Context, question: string, what: string): Promise<boolean> {
  if (ctx.globals.yes) return true;
  requireConfirmable(ctx, what);
  const { confirm } = await import('@inquirer/prompts');
  return confirm(
    { message: question, default: false },
    { input: ctx.io.stdin, output: ctx.io.stderr, signal: ctx.signal },
  );
}

/** What every command says after a "no". */
export function nothingChanged(ctx: Context): void {
  ctx.info('Nothing changed.');
}
