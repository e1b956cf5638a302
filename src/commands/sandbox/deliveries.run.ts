// What `assess sandbox deliveries` does when it runs; its declaration (flags, help, fields) is ./deliveries.ts.
import { Printer } from '../../output/printer.js';
import { control, sandboxUrl } from './shared/control.js';
import type { Run } from '../../cli/command.js';
import type deliveries from './deliveries.js';

type Attempt = { n: number; at: string; url: string; status: number | null; error: string | null; durationMs: number };
type Delivery = Record<string, unknown> & {
  deliveryId: number;
  testInvitationId: number;
  event: string;
  state: string;
  url: string;
  queuedAt: string;
  attempts: Attempt[];
};

const outcome = (a: Attempt | undefined) => (a ? (a.error ?? `HTTP ${a.status}`) : '');

export const run: Run<typeof deliveries> = async (ctx, input) => {
  const q = input.invitation ? `?invitation=${input.invitation}` : '';
  const r = await control<{ deliveries: Delivery[] }>(ctx, await sandboxUrl(ctx, input.url), 'GET', `/deliveries${q}`);
  const printer = new Printer(ctx);
  if (input.attempts) {
    const rows = r.deliveries.flatMap((d) =>
      d.attempts.map((a) => ({
        deliveryId: d.deliveryId,
        testInvitationId: d.testInvitationId,
        event: d.event,
        ...a,
      })),
    );
    await printer.list(rows, {
      columns: [
        { key: 'deliveryId', header: 'Delivery', priority: 1, kind: 'id' },
        { key: 'testInvitationId', header: 'Invitation', priority: 2, kind: 'id' },
        { key: 'event', header: 'Event', priority: 3, kind: 'status' },
        { key: 'n', header: 'Try', priority: 5 },
        { key: 'at', header: 'At', priority: 8, kind: 'date' },
        { key: 'status', header: 'HTTP', priority: 6 },
        { key: 'error', header: 'Error', priority: 7 },
        { key: 'durationMs', header: 'ms', priority: 9 },
        { key: 'url', header: 'URL', priority: 10 },
      ],
      fields: ['deliveryId', 'testInvitationId', 'event', 'n', 'at', 'url', 'status', 'error', 'durationMs'],
    });
    return;
  }
  await printer.list(r.deliveries, {
    columns: [
      { key: 'deliveryId', header: 'Delivery', priority: 1, kind: 'id' },
      { key: 'testInvitationId', header: 'Invitation', priority: 2, kind: 'id' },
      { key: 'event', header: 'Event', priority: 3, kind: 'status' },
      { key: 'state', header: 'State', priority: 4, kind: 'status' },
      { key: 'attempts', header: 'Tries', priority: 6, value: (d) => (d.attempts as Attempt[]).length },
      {
        key: 'lastResult',
        header: 'Last result',
        priority: 5,
        value: (d) => outcome((d.attempts as Attempt[]).at(-1)),
      },
      { key: 'queuedAt', header: 'Queued', priority: 8, kind: 'date' },
      { key: 'url', header: 'URL', priority: 10 },
    ],
  });
};
