// What `assess sandbox quirks` does when it runs; its declaration (flags, help, fields) is ./quirks.ts.
import { Printer } from '../../output/printer.js';
import { warnEmbeddedSetting } from '../shared/live-sandbox.js';
import { control, sandboxUrl } from './shared/control.js';
import type { Run } from '../../cli/command.js';
import type quirks from './quirks.js';

type View = { seed: number | null; vendorTypeOfTest: boolean; gateway401: boolean; rewritten: number };

export const run: Run<typeof quirks> = async (ctx, input) => {
  const base = await sandboxUrl(ctx, input.url);
  const off = input.off || input.seed === 'off';
  const view =
    input.seed !== undefined && input.seed !== 'off'
      ? await control<View>(ctx, base, 'POST', '/quirks', { seed: input.seed })
      : await control<View>(ctx, base, off ? 'DELETE' : 'GET', '/quirks');
  await new Printer(ctx).object(view as unknown as Record<string, unknown>, {
    fields: [
      { key: 'seed', header: 'Seed', value: (r) => r.seed ?? 'off' },
      { key: 'vendorTypeOfTest', header: 'Production typeOfTest (0/1)' },
      { key: 'gateway401', header: 'Gateway 401' },
      { key: 'rewritten', header: 'Answers rewritten' },
    ],
  });
  // quirks mode lives in the sandbox's memory: the embedded one's ends with this command
  if (view.seed !== null && input.seed !== undefined && !input.url)
    await warnEmbeddedSetting(ctx, 'Quirks', `quirks ${view.seed}`, `--quirks ${view.seed}`);
};
