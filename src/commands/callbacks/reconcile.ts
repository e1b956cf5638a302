// `assess callbacks reconcile --from T --to T [--apply] [--all]`: which attempts that completed in
// the window have no terminal notification in the inbox (the service gives up after 5 tries, so a
// listener that was down loses them); with --apply re-queues exactly those through
// `callbacks process` (≤ 100 ids per request). By default only the invitations this CLI
// registered a callback URL for (the profile's ledger, src/commands/shared/callback-ledger.ts)
// are checked: an attempt without a callback is never notified, so it is not missing. An id the
// service will not re-queue (it answers "failed": nothing to notify) is "not registered", not a
// failure. Built for a nightly job: the store records what was re-queued (per service: a
// --sandbox rehearsal is apart), so a second run within --cooldown does not re-queue the same ids
// again; exit 5 only when a registered notification is missing and could not be re-queued.
import * as z from 'zod/mini';
import { MAX_CALLBACK_IDS } from '../../api/wire-constants.js';
import { defineCommand, flag } from '../../cli/command.js';
import { configDir } from '../../config/store.js';
import { PartialFailureError, UsageError } from '../../errors.js';
import { Printer } from '../../output/printer.js';
import { durationArg } from '../../util/duration.js';
import { attemptWindowSchema } from '../shared/attempt-window.js';
import { chunk } from '../shared/invitation-ids.js';
import { ledgerPath, readLedger } from '../shared/callback-ledger.js';
import { STORE_FLAG, openInbox } from './shared/open-store.js';

const FIELDS = ['testInvitationId', 'testStatus', 'email', 'name', 'requeue', 'message'];

export default defineCommand({
  name: 'reconcile',
  description:
    'Find completed attempts registered with a callback URL (by this CLI; --all: every one) whose notification never reached the inbox; --apply re-queues exactly those',
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
      'check every completed attempt, not only the invitations this CLI created or re-attempted with a callback URL (its ledger)',
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
  async run(ctx, input) {
    const window = attemptWindowSchema.safeParse({ state: 'completed', from: input.from, to: input.to });
    if (!window.success) {
      const issue = window.error.issues[0]!;
      throw new UsageError(`--${String(issue.path[0] ?? 'from')}: ${issue.message}`);
    }
    const dir = configDir(ctx.env);
    // opened first: a store that cannot be used stops the run before anything is asked of the service
    const inbox = (await openInbox(ctx, input.store))!;
    const { notifiedTerminal, anyTerminal } = await import('./shared/inbox-read.js');
    const ledgerFile = ledgerPath(dir, ctx.globals.profile);
    const registered = new Set(readLedger(ledgerFile).map((e) => e.invitationId));

    const client = await ctx.api();
    const { from, to } = window.data;
    const attempts = (await client.listAttempts('completed', from, to)).testAttempts;
    const checked = input.all ? attempts : attempts.filter((a) => registered.has(String(a.testInvitationId)));
    if (checked.length && !anyTerminal(inbox.store))
      ctx.warn(`${inbox.path} holds no terminal notification, so every checked attempt counts as missing.`);
    const missing = checked
      .filter((a) => !notifiedTerminal(inbox.store, String(a.testInvitationId)))
      .map((a) => ({
        testInvitationId: String(a.testInvitationId),
        testStatus: a.testStatus,
        email: a.email,
        name: a.name,
        requeue: null as string | null,
        message: null as string | null,
      }));
    const scope = input.all
      ? ''
      : ` ${checked.length} of them registered a callback URL through this CLI (ledger ${ledgerFile}; --all checks every one);`;
    ctx.info(
      `${attempts.length} completed attempt(s) between ${from} and ${to};${scope} ${checked.length - missing.length} notified in the inbox, ${missing.length} missing.`,
    );

    let failed = 0;
    if (input.apply && missing.length)
      failed = await requeue(ctx, client, missing, inbox.store, input.cooldown, { from, to });
    await new Printer(ctx).list(missing, {
      columns: [
        { key: 'testInvitationId', header: 'Invitation', priority: 1, kind: 'id' },
        { key: 'testStatus', header: 'Status', priority: 2, kind: 'status' },
        { key: 'email', header: 'E-mail', priority: 4 },
        { key: 'name', header: 'Name', priority: 5 },
        ...(input.apply
          ? [
              { key: 'requeue' as const, header: 'Re-queue', priority: 3, kind: 'status' as const },
              { key: 'message' as const, header: 'Message', priority: 6 },
            ]
          : []),
      ],
      fields: FIELDS,
    });
    const unregistered = missing.filter((r) => r.requeue === NOT_REGISTERED).length;
    if (unregistered)
      ctx.info(
        `${unregistered} attempt(s) are not registered for a notification: the service would not re-queue them (${missing.find((r) => r.requeue === NOT_REGISTERED)!.message}). That is not a failure.`,
      );
    if (failed) {
      const first = missing.find((r) => r.requeue === 'failed')!;
      throw new PartialFailureError(
        `${missing.length - failed - unregistered} of ${missing.length} missing notification(s) were re-queued; ${failed} could not be re-queued (invitation ${first.testInvitationId}: ${first.message ?? 'no reason given'}).`,
        failed,
        missing.length,
      );
    }
    if (missing.length && !input.apply) ctx.info('Run again with --apply to re-queue them.');
  },
});

type Row = { testInvitationId: string; requeue: string | null; message: string | null };

/** The re-queue result of an id the service answered "failed" for: it has nothing to notify. */
const NOT_REGISTERED = 'not registered';

/** Re-queues the rows (skipping ones re-queued within the cooldown); returns how many failed. */
async function requeue(
  ctx: import('../../context.js').Context,
  client: import('../../api/v3.js').V3Client,
  rows: Row[],
  store: import('../../store/db.js').Store,
  cooldownMs: number,
  window: { from: string; to: string },
): Promise<number> {
  const { runTarget } = await import('../../bulk/run.js');
  const { processChunk, SERVICE_FAILED } = await import('./process.js');
  const { earlierRequeue, recordRequeue, recordReconcileRun } = await import('./shared/reconcile-state.js');
  // what a --sandbox rehearsal re-queued was not re-queued on the service: the records are per target
  const { target } = await runTarget(ctx);
  const now = ctx.now().getTime();
  const todo: Row[] = [];
  for (const r of rows) {
    const earlier = earlierRequeue(store, target, r.testInvitationId);
    if (earlier?.result === 'successful' && now - earlier.atMs < cooldownMs) {
      r.requeue = 'earlier';
      r.message = `re-queued at ${new Date(earlier.atMs).toISOString()}; not again within the cooldown`;
    } else todo.push(r);
  }
  const byId = new Map(todo.map((r) => [r.testInvitationId, r]));
  const batches = chunk(
    todo.map((r) => r.testInvitationId),
    MAX_CALLBACK_IDS,
  );
  for (const [i, batch] of batches.entries()) {
    if (batches.length > 1) ctx.info(`Request ${i + 1} of ${batches.length} (${batch.length} ids)…`);
    const answers = await processChunk(client, batch);
    for (const res of answers) {
      const row = byId.get(String(res.testInvitationId))!;
      const refused = res.status === 'failed' && res.message === SERVICE_FAILED;
      row.requeue = refused ? NOT_REGISTERED : res.status;
      row.message = refused
        ? 'the service answered "failed" for it: it re-queues notifications only for invitations with a callback URL registered'
        : res.message;
    }
    // each answer is recorded as soon as it came: a run stopped later re-queues none of these again
    const at = ctx.now().getTime();
    store.write((s) => {
      for (const res of answers)
        recordRequeue(s, { target, invitationId: String(res.testInvitationId), atMs: at, ...res });
    });
  }
  const failed = rows.filter((r) => r.requeue === 'failed').length;
  const unregistered = rows.filter((r) => r.requeue === NOT_REGISTERED).length;
  const requeued = todo.length - failed - unregistered;
  store.write((s) =>
    recordReconcileRun(s, {
      target,
      atMs: ctx.now().getTime(),
      ...window,
      missing: rows.length,
      requeued,
      failed,
      notRegistered: unregistered,
    }),
  );
  ctx.info(
    `${requeued} re-queued, ${failed} could not be re-queued, ${unregistered} not registered, ${rows.length - todo.length} re-queued earlier (recorded in ${store.path}).`,
  );
  return failed;
}
