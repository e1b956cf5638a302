// What `assess sandbox faults` does when it runs; its declaration (flags, help, fields) is ./faults.ts.
import { Printer } from '../../output/printer.js';
import type { Context } from '../../context.js';
import { type FaultCounters } from '../../sandbox/specs.js';
import { control, sandboxUrl } from './shared/control.js';
import type { Run } from '../../cli/command.js';
import type faults from './faults.js';

type View = { spec: string | null; counters: FaultCounters };

export const run: Run<typeof faults> = async (ctx, input) => {
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
};

const embedded = async (ctx: Context) => ctx.globals.sandbox && (await ctx.connection()).embedded === true;
