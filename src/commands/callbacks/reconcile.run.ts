// `callbacks reconcile`: which attempts that completed in the window have no terminal notification
// in the inbox (the service gives up after 5 tries, so a listener that was down loses them); with
// --apply re-queues exactly those as `callbacks process` does (≤ 100 ids per request). By default
// only the invitations this CLI registered a callback URL for (the profile's ledger,
// src/commands/shared/ledger.ts) are checked: an attempt without a callback is never notified, so
// it is not missing. An id the service will not re-queue (it answers "failed": nothing to notify)
// is "not registered", not a failure. Built for a nightly job: the store records what was re-queued
// (per service: a --sandbox rehearsal is apart), so a second run within --cooldown does not
// re-queue the same ids again; exit 5 only when a registered notification is missing and could not
// be re-queued.
import { MAX_CALLBACK_IDS } from '../../api/wire-constants.js';
import type { V3Client } from '../../api/v3.js';
import type { Run } from '../../cli/command.js';
import type { Context } from '../../context.js';
import { PartialFailureError, UsageError } from '../../errors.js';
import { Printer } from '../../output/printer.js';
import type { Store } from '../../store/db.js';
import { plural, were, are } from '../../util/plural.js';
import { attemptWindowSchema } from '../shared/attempt-window.js';
import { chunk } from '../shared/invitation-ids.js';
import { invitationsWithCallback } from '../shared/record-invite.js';
import type decl from './reconcile.js';
import { FIELDS } from './reconcile.js';
import { openInbox } from './shared/open-store.js';

type Row = { testInvitationId: string; requeue: string | null; message: string | null };
type Attempt = Awaited<ReturnType<V3Client['listAttempts']>>['testAttempts'][number];
type Missing = Row & Pick<Attempt, 'testStatus' | 'email' | 'name'>;
type Window = { from: string; to: string };

/** The re-queue result of an id the service answered "failed" for: it has nothing to notify. */
const NOT_REGISTERED = 'not registered';

export const run: Run<typeof decl> = async (ctx, input) => {
  const window = windowOf(input);
  // opened first: a store that cannot be used stops the run before anything is asked of the service
  const inbox = (await openInbox(ctx, input.store))!;
  const { notifiedTerminal, anyTerminal } = await import('./shared/inbox-read.js');
  const { ids: registered, store: ledgerFile } = await invitationsWithCallback(ctx);

  const client = await ctx.api();
  const { from, to } = window;
  const attempts = (await client.listAttempts('completed', from, to)).testAttempts;
  const checked = input.all ? attempts : attempts.filter((a) => registered.has(String(a.testInvitationId)));
  if (checked.length && !anyTerminal(inbox.store))
    ctx.warn(`${inbox.path} holds no terminal notification, so every checked attempt counts as missing.`);
  const missing: Missing[] = checked
    .filter((a) => !notifiedTerminal(inbox.store, String(a.testInvitationId)))
    .map((a) => ({
      testInvitationId: String(a.testInvitationId),
      testStatus: a.testStatus,
      email: a.email,
      name: a.name,
      requeue: null,
      message: null,
    }));
  const scope = input.all
    ? ''
    : ` ${checked.length} of them registered a callback URL through this CLI (the ledger in ${ledgerFile}; --all ` +
      `checks every one);`;
  ctx.info(
    `${plural(attempts.length, 'completed attempt')} between ${from} and ` +
      `${to};${scope} ${checked.length - missing.length} notified in the inbox, ${missing.length} missing.`,
  );

  let failed = 0;
  if (input.apply && missing.length) failed = await requeue(ctx, client, missing, inbox.store, input.cooldown, window);
  await printMissing(ctx, missing, input.apply);
  report(ctx, missing, failed, input.apply);
};

/** --from and --to as the attempts list reads them; exit 2 naming the flag otherwise. */
function windowOf(input: { from?: string; to?: string }): Window {
  const window = attemptWindowSchema().safeParse({ state: 'completed', from: input.from, to: input.to });
  if (!window.success) {
    const issue = window.error.issues[0]!;
    throw new UsageError(`--${String(issue.path[0] ?? 'from')}: ${issue.message}`);
  }
  const { from, to } = window.data;
  return { from, to };
}

async function printMissing(ctx: Context, missing: Missing[], apply: boolean | undefined): Promise<void> {
  await new Printer(ctx).list(missing, {
    columns: [
      { key: 'testInvitationId', header: 'Invitation', priority: 1, kind: 'id' },
      { key: 'testStatus', header: 'Status', priority: 2, kind: 'status' },
      { key: 'email', header: 'E-mail', priority: 4 },
      { key: 'name', header: 'Name', priority: 5 },
      ...(apply
        ? [
            { key: 'requeue' as const, header: 'Re-queue', priority: 3, kind: 'status' as const },
            { key: 'message' as const, header: 'Message', priority: 6 },
          ]
        : []),
    ],
    fields: FIELDS,
  });
}

/** What the re-queue came to: the not registered said, exit 5 when some could not be re-queued. */
function report(ctx: Context, missing: Missing[], failed: number, apply: boolean | undefined): void {
  const unregistered = missing.filter((r) => r.requeue === NOT_REGISTERED).length;
  if (unregistered)
    ctx.info(
      `${plural(unregistered, 'attempt')} ${are(unregistered)} not registered for a notification: the service would ` +
        `not re-queue them (${missing.find((r) => r.requeue === NOT_REGISTERED)!.message}). That is not a failure.`,
    );
  if (failed) {
    const first = missing.find((r) => r.requeue === 'failed')!;
    const queued = missing.length - failed - unregistered;
    throw new PartialFailureError(
      `${queued} of ${plural(missing.length, 'missing notification')} ${were(queued)} re-queued; ${failed} could ` +
        `not be re-queued (invitation ${first.testInvitationId}: ${first.message ?? 'no reason given'}).`,
      failed,
      missing.length,
    );
  }
  if (missing.length && !apply) ctx.info('Run again with --apply to re-queue them.');
}

/** Re-queues the rows (skipping ones re-queued within the cooldown); returns how many failed. */
async function requeue(
  ctx: Context,
  client: V3Client,
  rows: Row[],
  store: Store,
  cooldownMs: number,
  window: Window,
): Promise<number> {
  const { storeTarget } = await import('../../store/profile-store.js');
  const { recordReconcileRun } = await import('./shared/reconcile-state.js');
  // what a --sandbox rehearsal re-queued was not re-queued on the service: the records are per target
  const target = await storeTarget(ctx);
  const todo = await notRecentlyRequeued(ctx, rows, store, target, cooldownMs);
  await sendRequeues(ctx, client, todo, store, target);
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
    `${requeued} re-queued, ${failed} could not be re-queued, ${unregistered} not registered, ` +
      `${rows.length - todo.length} re-queued earlier (recorded in ${store.path}).`,
  );
  return failed;
}

/** The rows to re-queue now; one re-queued successfully within the cooldown is marked `earlier`. */
async function notRecentlyRequeued(
  ctx: Context,
  rows: Row[],
  store: Store,
  target: string,
  cooldownMs: number,
): Promise<Row[]> {
  const { earlierRequeue } = await import('./shared/reconcile-state.js');
  const now = ctx.now().getTime();
  const todo: Row[] = [];
  for (const r of rows) {
    const earlier = earlierRequeue(store, target, r.testInvitationId);
    if (earlier?.result === 'successful' && now - earlier.atMs < cooldownMs) {
      r.requeue = 'earlier';
      r.message = `re-queued at ${new Date(earlier.atMs).toISOString()}; not again within the cooldown`;
    } else todo.push(r);
  }
  return todo;
}

/** Sends the rows' ids, `MAX_CALLBACK_IDS` a request, and marks each row with its answer. */
async function sendRequeues(ctx: Context, client: V3Client, todo: Row[], store: Store, target: string) {
  const { processChunk, SERVICE_FAILED } = await import('./shared/process-chunk.js');
  const { recordRequeue } = await import('./shared/reconcile-state.js');
  const byId = new Map(todo.map((r) => [r.testInvitationId, r]));
  const batches = chunk(
    todo.map((r) => r.testInvitationId),
    MAX_CALLBACK_IDS,
  );
  for (const [i, batch] of batches.entries()) {
    if (batches.length > 1) ctx.info(`Request ${i + 1} of ${batches.length} (${plural(batch.length, 'id')})…`);
    const answers = await processChunk(client, batch);
    for (const res of answers) {
      const row = byId.get(String(res.testInvitationId))!;
      const refused = res.status === 'failed' && res.message === SERVICE_FAILED;
      row.requeue = refused ? NOT_REGISTERED : res.status;
      row.message = refused
        ? 'the service answered "failed" for it: it re-queues notifications only for invitations with a callback URL ' +
          'registered'
        : res.message;
    }
    // each answer is recorded as soon as it came: a run stopped later re-queues none of these again
    const at = ctx.now().getTime();
    store.write((s) => {
      for (const res of answers)
        recordRequeue(s, { target, invitationId: String(res.testInvitationId), atMs: at, ...res });
    });
  }
}
