import * as z from 'zod/mini';
import { defineCommand, zx, flag } from '../../cli/command.js';
import { confirmAction, nothingChanged, requireConfirmable } from '../shared/confirm.js';
import { Printer } from '../../output/printer.js';
import { control, sandboxUrl } from './shared/control.js';

type ResetView = { reset: boolean; now: string; offsetMs: number; frozen: boolean; tests: number; invitations: number };

export default defineCommand({
  name: 'reset',
  description: 'Throw away all sandbox changes and go back to the seed data',
  examples: ['assess --sandbox sandbox reset --yes', 'assess sandbox reset --url http://127.0.0.1:4010 --yes'],
  flags: {
    url: flag('sandbox base URL (default: --sandbox, or the profile base URL)', { value: 'url' }, () =>
      z.optional(zx.url()),
    ),
  },
  jsonFields: ['reset', 'now', 'offsetMs', 'frozen', 'tests', 'invitations'],
  async run(ctx, input) {
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
  },
});
