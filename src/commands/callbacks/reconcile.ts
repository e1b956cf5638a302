// `assess callbacks reconcile --from T --to T [--apply] [--all]`: the completed attempts of a window
// whose terminal notification never reached the inbox; with --apply re-queues exactly those
// (./reconcile.run.ts).
import * as z from 'zod/mini';
import { defineCommand, flag } from '../../cli/command.js';
import { durationArg } from '../../util/duration.js';
import { STORE_FLAG } from './shared/open-store.js';

export const FIELDS = ['testInvitationId', 'testStatus', 'email', 'name', 'requeue', 'message'];

export default defineCommand({
  name: 'reconcile',
  description:
    'Find completed attempts registered with a callback URL (by this CLI; --all: every one) whose notification never ' +
    'reached the inbox; --apply re-queues exactly those',
  examples: [
    'assess callbacks reconcile --from 1d --to now',
    'assess callbacks reconcile --from 2026-03-01 --to 2026-03-02 --apply --json',
    'assess callbacks reconcile --from 7d --to now --all',
  ],
  flags: {
    from: flag('window start (YYYY-MM-DD, ISO 8601 or relative: -1d, "1d ago", yesterday)', { value: 'T' }, () =>
      z.optional(z.string()),
    ),
    to: flag('window end', { value: 'T' }, () => z.optional(z.string())),
    state: flag(
      'which attempts: completed (Complete, Test Left, Terminated) — the only ones notified',
      { value: 'state', default: 'completed' },
      () => z._default(z.string().register(z.globalRegistry, { completion: ['completed'] }), 'completed'),
    ),
    ...STORE_FLAG,
    all: flag(
      'check every completed attempt, not only the invitations this ' +
        'CLI created or re-attempted with a callback URL (its ledger)',
      () => z.optional(z.boolean()),
    ),
    apply: flag('re-queue the missing notifications (callbacks process, 100 ids per request)', () =>
      z.optional(z.boolean()),
    ),
    cooldown: flag(
      'ids re-queued less than this long ago (per the journal) are not re-queued again',
      { value: 'duration', default: '1h' },
      () => durationArg('1h', 0, 30 * 86_400_000),
    ),
  },
  check: (v, c) => {
    if (v.state.toLowerCase() !== 'completed')
      c.addIssue({
        code: 'custom',
        path: ['state'],
        message: `must be completed: the service sends no notification for ${v.state} attempts`,
      });
  },
  jsonFields: FIELDS,
  v2: { unsupported: 'v2 cannot list attempts or reprocess callbacks' },
  handler: () => import('./reconcile.run.js'),
});
