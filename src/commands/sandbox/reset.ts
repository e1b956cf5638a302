import { z } from 'zod';
import { defineCommand, zx } from '../../cli/command.js';
import { UsageError } from '../../errors.js';
import { control, sandboxUrl } from './shared/control.js';

export default defineCommand({
  name: 'reset',
  description: 'Throw away all sandbox changes and go back to the seed data',
  examples: ['assess --sandbox sandbox reset --yes', 'assess sandbox reset --url http://127.0.0.1:4010 --yes'],
  options: (cmd) => cmd.option('--url <url>', 'sandbox base URL (default: --sandbox, or the profile base URL)'),
  schema: z.object({ url: zx.url().optional() }),
  async run(ctx, input) {
    if (!ctx.globals.yes) {
      if (!ctx.globals.interactive) throw new UsageError('sandbox reset discards every change: pass --yes to confirm');
      const { confirm } = await import('@inquirer/prompts');
      const ok = await confirm({ message: 'Discard every sandbox change and go back to the seed data?', default: false }, { input: ctx.io.stdin, output: ctx.io.stderr });
      if (!ok) return ctx.info('Nothing changed.');
    }
    const r = await control<{ tests: number; now: string }>(ctx, await sandboxUrl(ctx, input.url), 'POST', '/reset');
    ctx.info(`Sandbox reset to seed data (${r.tests} tests, clock ${r.now}).`);
  },
});
