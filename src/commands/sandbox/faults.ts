import * as z from 'zod/mini';
import { defineCommand, zx, arg, flag } from '../../cli/command.js';
import { Printer } from '../../output/printer.js';
import type { Context } from '../../context.js';
import { FaultSpecError, parseFaultSpec, type FaultCounters } from '../../sandbox/specs.js';
import { warnEmbeddedSetting } from '../shared/live-sandbox.js';
import { control, sandboxUrl } from './shared/control.js';

type View = { spec: string | null; counters: FaultCounters };

export default defineCommand({
  name: 'faults',
  args: {
    spec: arg({ optional: true }, () => z.optional(z.string())),
  },
  description: 'Show the injected faults and how many were injected, set new ones (counters restart), or clear them',
  examples: [
    'assess sandbox faults --url http://127.0.0.1:4010',
    'assess sandbox faults "5xx=0.1,429=0.05,reset=0.05,latency=5ms..50ms,after=0.5,seed=42" --url http://127.0.0.1:4010',
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
  async run(ctx, input) {
    const base = await sandboxUrl(ctx, input.url);
    const r =
      input.spec !== undefined
        ? await control<View>(ctx, base, 'POST', '/faults', { spec: input.spec })
        : await control<View>(ctx, base, input.clear ? 'DELETE' : 'GET', '/faults');
    const { counters } = r;
    const rows = Object.entries(counters.injected).map(([fault, n]) => ({ fault, before: n.before, after: n.after }));
    await new Printer(ctx).object(
      { spec: r.spec, requests: counters.requests, delayed: counters.delayed, total: counters.total, injected: rows },
      {
        fields: [
          // null under --json (as GET /_sandbox/faults answers); 'none' for people
          { key: 'spec', header: 'Faults', value: (o) => o.spec ?? 'none' },
          { key: 'requests', header: 'API requests' },
          { key: 'delayed', header: 'Delayed' },
          { key: 'total', header: 'Injected' },
        ],
        sections: [
          {
            title: 'Injected (before / after the handler ran)',
            rows,
            columns: [
              { key: 'fault', header: 'Fault', priority: 1 },
              { key: 'before', header: 'Before', priority: 2 },
              { key: 'after', header: 'After', priority: 3 },
            ],
          },
        ],
      },
    );
    if (input.clear) ctx.info('Faults cleared.');
    // faults are kept in the sandbox's state: the embedded sandbox of every later --sandbox command meets them
    else if (input.spec !== undefined && r.spec !== null && !input.url && (await embedded(ctx)))
      ctx.info("Every --sandbox command meets these faults until 'assess --sandbox sandbox faults --clear'.");
  },
});

const embedded = async (ctx: Context) => ctx.globals.sandbox && (await ctx.connection()).embedded === true;
