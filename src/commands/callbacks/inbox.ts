// `assess callbacks inbox [--since T] [--status S] [--failed]`: what `callbacks listen` stored, or
// with --failed the dead letters still undelivered (./inbox.run.ts).
import * as z from 'zod/mini';
import { defineCommand, flag } from '../../cli/command.js';
import { timeArg } from '../../util/time.js';
import { STORE_FLAG } from './shared/open-store.js';

export const NOTIFICATION_FIELDS = [
  'receivedAt',
  'invitationId',
  'status',
  'duplicate',
  'id',
  'forwardTo',
  'problem',
  'notification',
];
export const FAILED_FIELDS = ['at', 'invitationId', 'status', 'target', 'tries', 'error', 'id'];

export default defineCommand({
  name: 'inbox',
  description:
    'List the notifications `callbacks listen` stored (duplicates marked), or with --failed the forwards that failed',
  examples: [
    'assess callbacks inbox --since 1d',
    'assess callbacks inbox --status complete --json invitationId,receivedAt',
    'assess callbacks inbox --failed',
  ],
  flags: {
    ...STORE_FLAG,
    since: flag(
      'only records from this time on (YYYY-MM-DD, ISO 8601 or relative: -1d, "1d ago", today)',
      { value: 'T' },
      () => z.optional(timeArg('past')),
    ),
    status: flag(
      'only notifications with this status, e.g. complete, "in progress" (case ignored)',
      { value: 'status' },
      () => z.optional(z.string().check(z.trim(), z.minLength(1, 'must be a status, e.g. complete'))),
    ),
    failed: flag('list the dead letters: forwards that failed after the retries and were not delivered since', () =>
      z.optional(z.boolean()),
    ),
  },
  jsonFields: [...new Set([...NOTIFICATION_FIELDS, ...FAILED_FIELDS])],
  handler: () => import('./inbox.run.js'),
});
