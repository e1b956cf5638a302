// `assess callbacks inbox [--since T] [--status S] [--failed]`: what `callbacks listen` stored in
// its durable inbox — the notifications (duplicates marked; what cannot be understood, and the
// bodies that were not JSON (quarantine file), with the reason in `problem`) or, with --failed,
// the dead letters still undelivered (a later forward or replay of the same notification settles
// one). All output formats.
import * as z from 'zod/mini';
import { defineCommand, flag } from '../../cli/command.js';
import { configDir } from '../../config/store.js';
import { Printer } from '../../output/printer.js';
import { timeArg } from '../../util/time.js';
import { normStatus } from '../shared/statuses.js';
import { stillFailed, unsettledForwards } from './shared/forward-log.js';

const NOTIFICATION_FIELDS = [
  'receivedAt',
  'invitationId',
  'status',
  'duplicate',
  'id',
  'forwardTo',
  'problem',
  'notification',
];
const FAILED_FIELDS = ['at', 'invitationId', 'status', 'target', 'tries', 'error', 'id'];

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
    inbox: flag('the inbox file (default: <config dir>/inbox/<profile>.ndjson)', { value: 'file' }, () =>
      z.optional(z.string().check(z.minLength(1, 'must name a file'))),
    ),
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
  async run(ctx, input) {
    const { defaultInboxPath, readInbox, bodyBytes, quarantinePath } = await import('./shared/inbox.js');
    const path = input.inbox ?? defaultInboxPath(configDir(ctx.env), ctx.globals.profile);
    const { records, unreadable } = readInbox(path);
    if (unreadable) ctx.warn(`${path}: ${unreadable} line(s) that are not inbox records were ignored.`);
    const quarantined = input.failed
      ? []
      : readInbox(quarantinePath(path)).records.flatMap((r) => (r.type === 'quarantined' ? [r] : []));
    if (!records.length && !quarantined.length) ctx.info(`No records in ${path}.`);
    const since = input.since ? Date.parse(input.since) : -Infinity;
    const status = input.status ? normStatus(input.status) : undefined;
    const keep = (at: string, s: string | null) =>
      Date.parse(at) >= since && (status === undefined || normStatus(s) === status);
    const printer = new Printer(ctx);
    if (input.failed) {
      const rows = stillFailed(records).flatMap((r) => (keep(r.at, r.status) ? [{ ...r }] : []));
      const waiting = unsettledForwards(records);
      if (waiting.length)
        ctx.info(
          `${waiting.length} notification(s) were acknowledged and are not forwarded yet (not failed): a listener forwarding to ${[...new Set(waiting.map((w) => w.forwardTo))].join(', ')} sends them, also after a restart.`,
        );
      return void (await printer.list(rows, {
        columns: [
          { key: 'at', header: 'Failed at', priority: 3, kind: 'date' },
          { key: 'invitationId', header: 'Invitation', priority: 1, kind: 'id' },
          { key: 'status', header: 'Status', priority: 2, kind: 'status' },
          { key: 'target', header: 'Target', priority: 5 },
          { key: 'tries', header: 'Tries', priority: 6 },
          { key: 'error', header: 'Error', priority: 4 },
        ],
        fields: FAILED_FIELDS,
      }));
    }
    const rows = records.flatMap((r) => {
      if (r.type !== 'notification' || !keep(r.receivedAt, r.status)) return [];
      let notification: unknown;
      try {
        notification = JSON.parse(bodyBytes(r).toString('utf8'));
      } catch {
        notification = null;
      }
      return [
        {
          receivedAt: r.receivedAt,
          invitationId: r.invitationId,
          status: r.status,
          duplicate: r.duplicate,
          id: r.id,
          forwardTo: r.forwardTo ?? null,
          problem: r.problem ?? null,
          notification,
        },
      ];
    });
    // bodies that were not JSON, in arrival order among the rest
    for (const q of quarantined)
      if (keep(q.receivedAt, null) && status === undefined)
        rows.push({
          receivedAt: q.receivedAt,
          invitationId: null,
          status: null,
          duplicate: false,
          id: q.id,
          forwardTo: null,
          problem: q.reason,
          notification: null,
        });
    rows.sort((x, y) => x.receivedAt.localeCompare(y.receivedAt));
    await printer.list(rows, {
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
    const problems = rows.filter((r) => r.problem !== null).length;
    if (problems)
      ctx.warn(`${problems} stored request(s) could not be understood as a notification; the problem column says why.`);
  },
});
