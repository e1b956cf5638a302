// What `assess sandbox reset` does when it runs; its declaration (flags, help, fields) is ./reset.ts.
import { confirmAction, nothingChanged, requireConfirmable } from '../shared/confirm.js';
import { Printer } from '../../output/printer.js';
import { control, sandboxUrl } from './shared/control.js';
import type { Run } from '../../cli/command.js';
import type reset from './reset.js';

type ResetView = { reset: boolean; now: string; offsetMs: number; frozen: boolean; tests: number; invitations: number };

export const run: Run<typeof reset> = async (ctx, input) => {
  requireConfirmable(ctx, 'sandbox reset (it discards every change)');
  const base = await sandboxUrl(ctx, input.url);
  const which = ctx.globals.sandbox ? 'the embedded sandbox' : `the sandbox at ${base}`;
  if (
    !(await confirmAction(
      ctx,
      `Discard every change of ${which} and go back to the seed data?`,
      'sandbox reset (it discards every change)',
    ))
  )
    return nothingChanged(ctx);
  const r = await control<ResetView>(ctx, base, 'POST', '/reset');
  ctx.info(`Sandbox reset to seed data (${r.tests} tests, clock ${r.now}).`);
  // the notice is all a person needs; --json, --ndjson, --csv and --query get the sandbox's answer
  if ((ctx.globals.output === 'table' || ctx.globals.output === 'tsv') && !ctx.globals.query) return;
  await new Printer(ctx).object(r, {
    fields: [
      { key: 'reset', header: 'Reset' },
      { key: 'now', header: 'Clock', kind: 'date' },
      { key: 'offsetMs', header: 'Offset (ms)' },
      { key: 'frozen', header: 'Frozen' },
      { key: 'tests', header: 'Tests' },
      { key: 'invitations', header: 'Invitations' },
    ],
  });
};
