// `callbacks inbox`: what `callbacks listen` stored — the notifications (duplicates marked; what
// cannot be understood, and the bodies that were not JSON, with the reason in `problem`) or, with
// --failed, the dead letters still undelivered (a later forward or replay of the same notification
// settles one). Read from the store through its indexes (a time range, a status) and streamed row
// by row, so neither the time nor the memory grows with the history. All output formats.
import type { Run } from '../../cli/command.js';
import type { Context } from '../../context.js';
import { Printer } from '../../output/printer.js';
import type { Store } from '../../store/db.js';
import { plural, were } from '../../util/plural.js';
import { normStatus } from '../shared/statuses.js';
import type decl from './inbox.js';
import { FAILED_FIELDS, NOTIFICATION_FIELDS } from './inbox.js';
import { callbacksStorePath, openInbox } from './shared/open-store.js';

export const run: Run<typeof decl> = async (ctx, input) => {
  const inbox = await openInbox(ctx, input.store, { readOnly: true });
  const filter = {
    sinceMs: input.since ? Date.parse(input.since) : undefined,
    statusKey: input.status ? normStatus(input.status) : undefined,
  };
  if (!inbox) ctx.info(`No records in ${callbacksStorePath(ctx, input.store)} (nothing stored yet).`);
  if (input.failed) return listFailed(ctx, inbox?.store, filter);
  const { notifications } = await import('./shared/inbox-read.js');
  let problems = 0;
  const rows = function* () {
    if (!inbox) return;
    for (const r of notifications(inbox.store, filter)) {
      if (r.problem !== null) problems++;
      yield {
        receivedAt: r.receivedAt,
        invitationId: r.invitationId,
        status: r.status,
        duplicate: r.duplicate,
        id: r.id,
        forwardTo: r.forwardTo,
        problem: r.problem,
        notification: r.quarantined ? null : parsed(r.body),
      };
    }
  };
  const n = await new Printer(ctx).list(rows(), {
    columns: [
      { key: 'receivedAt', header: 'Received', priority: 3, kind: 'date' },
      { key: 'invitationId', header: 'Invitation', priority: 1, kind: 'id' },
      { key: 'status', header: 'Status', priority: 2, kind: 'status' },
      { key: 'duplicate', header: 'Duplicate', priority: 5 },
      { key: 'id', header: 'Webhook id', priority: 6 },
      { key: 'problem', header: 'Problem', priority: 4 },
    ],
    fields: NOTIFICATION_FIELDS,
  });
  if (inbox && !n) ctx.info(`No records in ${inbox.path}${input.since || input.status ? ' that match' : ''}.`);
  if (problems)
    ctx.warn(
      `${plural(problems, 'stored request')} could not be understood as a notification; the problem column says why.`,
    );
};

function parsed(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return null;
  }
}

async function listFailed(
  ctx: Context,
  store: Store | undefined,
  filter: { sinceMs?: number; statusKey?: string },
): Promise<void> {
  const { deadLetters, waitingForwards } = await import('./shared/inbox-read.js');
  const rows = store ? deadLetters(store, filter) : [];
  const waiting = store ? waitingForwards(store) : new Map<string, number>();
  const count = [...waiting.values()].reduce((a, b) => a + b, 0);
  if (count)
    ctx.info(
      `${plural(count, 'notification')} ${were(count)} acknowledged and ${count === 1 ? 'is' : 'are'} not forwarded ` +
        `yet (not failed): a listener forwarding to ` +
        `${[...waiting.keys()].join(', ')} sends them, also after a restart.`,
    );
  await new Printer(ctx).list(rows, {
    columns: [
      { key: 'at', header: 'Failed at', priority: 3, kind: 'date' },
      { key: 'invitationId', header: 'Invitation', priority: 1, kind: 'id' },
      { key: 'status', header: 'Status', priority: 2, kind: 'status' },
      { key: 'target', header: 'Target', priority: 5 },
      { key: 'tries', header: 'Tries', priority: 6 },
      { key: 'error', header: 'Error', priority: 4 },
    ],
    fields: FAILED_FIELDS,
  });
}
