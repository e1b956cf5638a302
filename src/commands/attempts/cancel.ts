// `assess attempts cancel <invitationId>` (operation 8): asks first on a terminal.
import { z } from 'zod';
import { CancelResponse } from '../../api/schemas/index.js';
import { defineCommand, zx } from '../../cli/command.js';
import { fieldsOf } from '../../cli/json-fields.js';
import type { Context } from '../../context.js';
import { CancelledError, UsageError } from '../../errors.js';
import type * as R from '../../api/read/v3.js';
import { Printer, type Column } from '../../output/printer.js';

const COLUMNS: Column<R.Cancelled>[] = [
  { key: 'testInvitationId', header: 'Invitation', kind: 'id' },
  { key: 'status', header: 'Status', kind: 'status' },
];

export default defineCommand({
  name: 'cancel',
  args: ['<invitationId>'],
  description: 'Cancel an invitation (asks for confirmation on a terminal; --yes skips it)',
  examples: ['assess attempts cancel 5001', 'assess attempts cancel 5001 --yes --json'],
  schema: z.object({ invitationId: zx.id('5001') }),
  jsonFields: fieldsOf(CancelResponse, COLUMNS),
  v2: { unsupported: 'v2 cannot cancel an invitation' },
  async run(ctx, { invitationId }) {
    await confirmOrThrow(ctx, `Cancel invitation ${invitationId}? The candidate will no longer be able to take the test.`);
    const res = await (await ctx.api()).cancel(invitationId);
    ctx.info(`Cancelled invitation ${invitationId}.`);
    new Printer(ctx).object(res, { fields: COLUMNS });
  },
});

/** --yes → go; a terminal → ask; otherwise a usage error that names --yes (nothing is sent). */
export async function confirmOrThrow(ctx: Context, message: string): Promise<void> {
  if (ctx.globals.yes) return;
  if (!ctx.globals.interactive)
    throw new UsageError('--yes: confirmation needed but there is no terminal to ask on', 'run again with --yes to confirm');
  const { confirm } = await import('@inquirer/prompts');
  let ok: boolean;
  try {
    ok = await confirm({ message, default: false }, { input: ctx.io.stdin, output: ctx.io.stderr, signal: ctx.signal });
  } catch {
    // Ctrl-C (ExitPromptError) or the abort signal.
    throw new CancelledError('interrupted; nothing was changed');
  }
  if (!ok) throw new CancelledError('not confirmed; nothing was changed', false);
}
