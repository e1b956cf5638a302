// `assess callbacks reconcile --from T --to T [--apply]`: which attempts that completed in the
// window have no terminal notification in the inbox (the service gives up after 5 tries, so a
// listener that was down loses them); with --apply re-queues exactly those through
// `callbacks process` (≤ 100 ids per request). Built for a nightly job: a journal records what was
// re-queued, so a second run within --cooldown does not re-queue the same ids again.
import * as z from 'zod';
import { MAX_CALLBACK_IDS } from '../../api/wire-constants.js';
import { defineCommand } from '../../cli/command.js';
import { configDir } from '../../config/store.js';
import { PartialFailureError, UsageError } from '../../errors.js';
import { Printer } from '../../output/printer.js';
import { durationArg } from '../../util/duration.js';
import { attemptsListSchema } from '../attempts/list.js';
import { chunk } from './shared/ids.js';

const FIELDS = ['testInvitationId', 'testStatus', 'email', 'name', 'requeue', 'message'];

export default defineCommand({
  name: 'reconcile',
  description: 'Find completed attempts whose notification never reached the inbox; --apply re-queues exactly those',
  examples: ['assess callbacks reconcile --from 1d --to now', 'assess callbacks reconcile --from 2026-03-01 --to 2026-03-02 --apply --json'],
  options: (cmd) =>
    cmd
      .option('--from <T>', 'window start (YYYY-MM-DD, ISO 8601 or relative: 1d)')
      .option('--to <T>', 'window end')
      .option('--state <state>', 'which attempts: completed (Complete, Test Left, Terminated) — the only ones notified', 'completed')
      .option('--inbox <file>', 'the inbox of callbacks listen (default: <config dir>/inbox/<profile>.ndjson)')
      .option('--apply', 're-queue the missing notifications (callbacks process, 100 ids per request)')
      .option('--journal <file>', 'journal of re-queued ids (default: <config dir>/reconcile/<profile>.journal.ndjson)')
      .option('--cooldown <duration>', 'ids re-queued less than this long ago (per the journal) are not re-queued again', '1h'),
  schema: () =>
    z
      .object({
        from: z.string().optional(),
        to: z.string().optional(),
        state: z
          .string()
          .meta({ completion: ['completed'] })
          .default('completed'),
        inbox: z.string().min(1, 'must name a file').optional(),
        apply: z.boolean().optional(),
        journal: z.string().min(1, 'must name a file').optional(),
        cooldown: durationArg('1h', 0, 30 * 86_400_000),
      })
      .superRefine((v, c) => {
        if (v.state.toLowerCase() !== 'completed')
          c.addIssue({ code: 'custom', path: ['state'], message: `must be completed: the service sends no notification for ${v.state} attempts` });
        if (v.journal && !v.apply) c.addIssue({ code: 'custom', path: ['journal'], message: 'only used with --apply' });
      }),
  jsonFields: FIELDS,
  v2: { unsupported: 'v2 cannot list attempts or reprocess callbacks' },
  async run(ctx, input) {
    const window = attemptsListSchema.safeParse({ state: 'completed', from: input.from, to: input.to });
    if (!window.success) {
      const issue = window.error.issues[0]!;
      throw new UsageError(`--${String(issue.path[0] ?? 'from')}: ${issue.message}`);
    }
    const { defaultInboxPath, readInbox } = await import('./shared/inbox.js');
    const { isTerminal } = await import('./shared/statuses.js');
    const dir = configDir(ctx.env);
    const inboxPath = input.inbox ?? defaultInboxPath(dir, ctx.globals.profile);
    const { records, unreadable } = readInbox(inboxPath);
    if (unreadable) ctx.warn(`${inboxPath}: ${unreadable} unreadable line(s) ignored`);
    if (!records.length) ctx.warn(`${inboxPath} holds no notification: every attempt in the window counts as missing`);
    const notified = new Set(records.flatMap((r) => (r.type === 'notification' && isTerminal(r.status) ? [r.invitationId] : [])));

    const client = await ctx.api();
    const { from, to } = window.data;
    const attempts = (await client.listAttempts('completed', from, to)).testAttempts;
    const missing = attempts
      .filter((a) => !notified.has(String(a.testInvitationId)))
      .map((a) => ({
        testInvitationId: String(a.testInvitationId),
        testStatus: a.testStatus,
        email: a.email,
        name: a.name,
        requeue: null as string | null,
        message: null as string | null,
      }));
    ctx.info(
      `${attempts.length} completed attempt(s) between ${from} and ${to}; ${attempts.length - missing.length} notified in the inbox, ${missing.length} missing.`,
    );

    let failed = 0;
    if (input.apply && missing.length)
      failed = await requeue(ctx, client, missing, input.journal ?? `${dir}/reconcile/${ctx.globals.profile}.journal.ndjson`, input.cooldown, { from, to });
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
    if (failed)
      throw new PartialFailureError(
        `${missing.length - failed} of ${missing.length} missing notification(s) re-queued, ${failed} could not be`,
        failed,
        missing.length,
      );
    if (missing.length && !input.apply) ctx.info('Run again with --apply to re-queue them.');
  },
});

type Row = { testInvitationId: string; requeue: string | null; message: string | null };

/** Re-queues the rows (skipping ones journaled within the cooldown); returns how many failed. */
async function requeue(
  ctx: import('../../context.js').Context,
  client: import('../../api/v3.js').V3Client,
  rows: Row[],
  journalPath: string,
  cooldownMs: number,
  window: { from: string; to: string },
): Promise<number> {
  const { Journal } = await import('../../bulk/journal.js');
  const { processChunk } = await import('./process.js');
  const journal = await Journal.open(journalPath);
  try {
    const now = Date.now();
    const todo: Row[] = [];
    for (const r of rows) {
      const earlier = journal.get(r.testInvitationId);
      if (earlier?.result === 'successful' && now - Date.parse(String(earlier.at)) < cooldownMs) {
        r.requeue = 'earlier';
        r.message = `re-queued at ${String(earlier.at)}; not again within the cooldown`;
      } else todo.push(r);
    }
    const byId = new Map(todo.map((r) => [r.testInvitationId, r]));
    const batches = chunk(
      todo.map((r) => r.testInvitationId),
      MAX_CALLBACK_IDS,
    );
    for (const [i, batch] of batches.entries()) {
      if (batches.length > 1) ctx.info(`Request ${i + 1} of ${batches.length} (${batch.length} ids)…`);
      for (const res of await processChunk(client, batch)) {
        const row = byId.get(String(res.testInvitationId))!;
        row.requeue = res.status;
        row.message = res.message;
        journal.append({ k: row.testInvitationId, result: res.status, message: res.message });
      }
    }
    const failed = rows.filter((r) => r.requeue === 'failed').length;
    journal.recordRun({ at: new Date().toISOString(), ...window, missing: rows.length, requeued: todo.length - failed, failed });
    ctx.info(`${todo.length - failed} re-queued, ${failed} failed, ${rows.length - todo.length} re-queued earlier (journal: ${journalPath}).`);
    return failed;
  } finally {
    journal.close();
  }
}
