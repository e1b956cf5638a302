// `assess sandbox quirks [seed|off] | --off`: quirks mode of a running sandbox (docs/sandbox.md).
import * as z from 'zod/mini';
import { defineCommand, zx, arg, flag } from '../../cli/command.js';

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
  handler: () => import('./quirks.run.js'),
});
