import * as z from 'zod/mini';
import { defineCommand, zx, arg, flag } from '../../cli/command.js';
import { FaultSpecError, parseFaultSpec } from '../../sandbox/specs.js';

export default defineCommand({
  name: 'faults',
  args: {
    spec: arg({ optional: true }, () => z.optional(z.string())),
  },
  description: 'Show the injected faults and how many were injected, set new ones (counters restart), or clear them',
  examples: [
    'assess sandbox faults --url http://127.0.0.1:4010',
    'assess sandbox faults "5xx=0.1,429=0.05,reset=0.05,latency=5ms..50ms,after=0.5,seed=42" --url ' +
      'http://127.0.0.1:4010',
    'assess sandbox faults --clear --url http://127.0.0.1:4010',
  ],
  flags: {
    clear: flag('switch faults off (prints the final counters)', () => z._default(z.boolean(), false)),
    url: flag('sandbox base URL (default: --sandbox, or the profile base URL)', { value: 'url' }, () =>
      z.optional(zx.url()),
    ),
  },
  check: (v, c) => {
    if (v.spec !== undefined && v.clear)
      c.addIssue({ code: 'custom', path: ['clear'], message: 'give a spec or --clear, not both' });
    if (v.spec === undefined) return;
    try {
      parseFaultSpec(v.spec); // checked here too, so a bad spec exits 2 before anything is sent
    } catch (err) {
      if (!(err instanceof FaultSpecError)) throw err;
      c.addIssue({
        code: 'custom',
        path: ['spec'],
        message: `${err.message}; e.g. 5xx=0.1,429=0.05,reset=0.05,seed=42`,
      });
    }
  },
  handler: () => import('./faults.run.js'),
});
