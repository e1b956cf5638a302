import * as z from 'zod/mini';
import { defineCommand, zx, flag } from '../../cli/command.js';
import { confirmAction, nothingChanged, requireConfirmable } from '../shared/confirm.js';
import { control, sandboxUrl } from './shared/control.js';

export default defineCommand({
  name: 'reset',
  description: 'Throw away all sandbox changes and go back to the seed data',
  examples: ['assess --sandbox sandbox reset --yes', 'assess sandbox reset --url http://127.0.0.1:4010 --yes'],
  flags: {
    url: flag('sandbox base URL (default: --sandbox, or the profile base URL)', { value: 'url' }, () => z.optional(zx.url())),
  },
  async run(ctx, input) {
    requireConfirmable(ctx, 'sandbox reset (it discards every change)');
    const base = await sandboxUrl(ctx, input.url);
    const which = ctx.globals.sandbox ? 'the embedded sandbox' : `the sandbox at ${base}`;
    if (!(await confirmAction(ctx, `Discard every change of ${which} and go back to the seed data?`, 'sandbox reset (it discards every change)')))
      return nothingChanged(ctx);
    const r = await control<{ tests: number; now: string }>(ctx, base, 'POST', '/reset');
    ctx.info(`Sandbox reset to seed data (${r.tests} tests, clock ${r.now}).`);
  },
});
