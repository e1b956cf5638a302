// `assess sandbox quirks [seed|off] | --off`: quirks mode of a running sandbox (docs/sandbox.md).
import * as z from 'zod/mini';
import { defineCommand, zx, arg, flag } from '../../cli/command.js';
import { Printer } from '../../output/printer.js';
import { warnEmbeddedSetting } from '../shared/live-sandbox.js';
import { control, sandboxUrl } from './shared/control.js';

type View = { seed: number | null; vendorTypeOfTest: boolean; gateway401: boolean; rewritten: number };

export default defineCommand({
  name: 'quirks',
  args: {
    // `off` as the argument, like `sandbox faults off`; --off stays
    seed: arg({ optional: true }, () =>
      z.optional(
        z
          .union([z.literal('off'), zx.int(0, 2 ** 31 - 1, 7)], {
            error: 'must be a seed (a whole number, e.g. 7) or off',
          })
          .register(z.globalRegistry, { completion: ['off'] }),
      ),
    ),
  },
  description: "Show quirks mode, turn it on with a seed (answers vary in form as a real service's do), or off",
  examples: [
    'assess sandbox quirks --url http://127.0.0.1:4010',
    'assess sandbox quirks 7 --url http://127.0.0.1:4010',
    'assess sandbox quirks off --url http://127.0.0.1:4010',
  ],
  flags: {
    off: flag('turn quirks mode off', () => z._default(z.boolean(), false)),
    url: flag('sandbox base URL (default: --sandbox, or the profile base URL)', { value: 'url' }, () =>
      z.optional(zx.url()),
    ),
  },
  check: (v, c) => {
    if (v.seed !== undefined && v.off)
      c.addIssue({ code: 'custom', path: ['off'], message: 'give a seed or --off, not both' });
  },
  jsonFields: ['seed', 'vendorTypeOfTest', 'gateway401', 'rewritten'],
  async run(ctx, input) {
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
  },
});
