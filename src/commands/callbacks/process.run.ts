// `callbacks process` (operation 16): any number of ids, sent in chunks of at most 100, merged into
// one successful/failed result (exit 5 when any failed). The chunks go out as a bulk run's requests
// do: at most --concurrency at once, at the service's pace (found from its 429s, src/api/pace.ts) or
// --rate.
import { MAX_CALLBACK_IDS } from '../../api/wire-constants.js';
import type { V3Client } from '../../api/v3.js';
import type { Run } from '../../cli/command.js';
import type { Context } from '../../context.js';
import { CancelledError, PartialFailureError, UsageError } from '../../errors.js';
import { Printer } from '../../output/printer.js';
import { INPUT_MAX_BYTES, readInputText } from '../../util/small-file.js';
import { plural, were, are } from '../../util/plural.js';
import { chunk, dedupe, parseIdArgs, parseIdText } from '../shared/invitation-ids.js';
import type decl from './process.js';
import { COLUMNS, FIELDS, type Reported } from './process.js';
import { idsFromAttempts } from './shared/from-attempts.js';
import { processChunk, SERVICE_FAILED, type CallbackResult } from './shared/process-chunk.js';

export const run: Run<typeof decl> = async (ctx, input) => {
  const listed = await idsFromAttempts(ctx, input, { args: input.ids.length, file: input.file !== undefined });
  if (listed && !listed.length)
    return void (await new Printer(ctx).list([], {
      columns: [{ key: 'testInvitationId', header: 'Invitation', priority: 1 }],
    }));
  const ids = dedupe(listed ?? (await collectIds(ctx, input.ids, input.file)));
  const [{ Pace }, { bulkClient, defaultConcurrency }] = await Promise.all([
    import('../../api/pace.js'),
    import('../../bulk/client.js'),
  ]);
  const pace = new Pace({ cap: input.rate });
  const client = await bulkClient(ctx, pace);
  const concurrency = input.concurrency ?? (await defaultConcurrency(ctx));
  const queued = await queueAll(ctx, client, ids, concurrency);
  const results: Reported[] = listed ? asNotRegistered(queued) : queued;
  if (pace.throttled)
    ctx.info(
      `${plural(pace.throttled, 'request')} answered 429 (too many requests) ` +
        `${were(pace.throttled)} sent again${pace.current() ? ` at ${pace.current()!.toFixed(1)}/s` : ''}.`,
    );
  const failed = results.filter((r) => r.status === 'failed');
  const unregistered = results.filter((r) => r.status === NOT_REGISTERED).length;
  await new Printer(ctx).list(results, { columns: COLUMNS, fields: FIELDS });
  if (unregistered)
    ctx.info(
      `${plural(unregistered, 'attempt')} ${are(unregistered)} not registered for a notification (no callback URL: ` +
        `the service answered "failed"). That is not a failure.`,
    );
  const summary =
    `${results.length - failed.length - unregistered} of ${plural(results.length, 'invitation')} queued for callback ` +
    `reprocessing, ${unregistered ? `${unregistered} not registered, ` : ''}${failed.length} failed`;
  if (failed.length)
    throw new PartialFailureError(
      `${summary}: ${failed
        .slice(0, 5)
        .map((f) => f.testInvitationId)
        .join(', ')}${failed.length > 5 ? ', …' : ''}`,
      failed.length,
      results.length,
    );
  ctx.info(`${summary}. Notifications arrive later at each invitation's callback URL.`);
};

/**
 * Every id queued, `MAX_CALLBACK_IDS` a request, at most `concurrency` at once. An interrupted run
 * of the same ids is resumed: what it queued is not queued twice (that would notify twice).
 */
async function queueAll(ctx: Context, client: V3Client, ids: string[], concurrency: number): Promise<CallbackResult[]> {
  const [{ runPool }, { openJournal, nameOfSet }] = await Promise.all([
    import('../../bulk/pool.js'),
    import('../../bulk/journal-store.js'),
  ]);
  const journal = await openJournal(ctx, { kind: 'process', name: nameOfSet('ids', ids), lock: true });
  try {
    const done = new Map(ids.flatMap((id) => resultOf(journal.get(id))).map((r) => [String(r.testInvitationId), r]));
    if (done.size)
      ctx.info(
        `Resuming an interrupted run of these ${ids.length} ids: ` +
          `${done.size} were queued by it and are not sent again.`,
      );
    const batches = chunk(
      ids.filter((id) => !done.has(id)),
      MAX_CALLBACK_IDS,
    );
    let sent = 0;
    // Ctrl-C: no new request; the ones sent finish (a second Ctrl-C stops at once)
    await runPool(batches.entries(), { concurrency, signal: ctx.signal }, async ([i, batch]) => {
      if (batches.length > 1) ctx.info(`Request ${i + 1} of ${batches.length} (${batch.length} ids)…`);
      const answer = await processChunk(client, batch);
      journal.store.write(() => {
        for (const r of answer) journal.append({ k: String(r.testInvitationId), ...r });
      });
      for (const r of answer) done.set(String(r.testInvitationId), r);
      sent++;
    });
    if (ctx.signal.aborted)
      throw new CancelledError(
        `interrupted after ${sent} of ${plural(batches.length, 'request')}; run it again with the same ids: it sends ` +
          `only the ids not queued yet`,
      );
    journal.forget(); // complete: the same ids again are a new run (a deliberate second re-queue)
    return ids.map((id) => done.get(id)!);
  } finally {
    journal.close();
    journal.store.close(); // an assistant's calls (assess mcp) share one process: each closes its own
  }
}

async function collectIds(ctx: Context, args: string[], file: string | undefined): Promise<string[]> {
  if (file !== undefined && args.length) throw new UsageError('--file: give ids as arguments or with --file, not both');
  if (file === undefined) {
    if (!args.length)
      throw new UsageError(
        '<ids>: no invitation ids given',
        'e.g. assess callbacks process 900001 900002, or --file ids.txt',
      );
    return parseIdArgs(args);
  }
  const text = await readInputText(file, {
    label: '--file',
    maxBytes: INPUT_MAX_BYTES,
    stdin: ctx.io.stdin,
    signal: ctx.signal,
  });
  const ids = parseIdText(text);
  if (!ids.length) throw new UsageError(`--file: no invitation ids in ${file}`);
  return ids;
}

const NOT_REGISTERED = 'not registered';

/**
 * With --from-attempts the ids are every attempt of a window, also those created without a
 * callback URL: the service's "failed" for one of those means nothing to notify, as reconcile
 * reads it — reported, not a failure.
 */
function asNotRegistered(results: CallbackResult[]): Reported[] {
  return results.map((r) =>
    r.status === 'failed' && r.message === SERVICE_FAILED
      ? {
          ...r,
          status: NOT_REGISTERED,
          message: 'the service answered "failed": it re-queues notifications only for invitations with a callback URL',
        }
      : r,
  );
}

/** An id's result as an earlier run recorded it. */
function resultOf(e: Record<string, unknown> | undefined): CallbackResult[] {
  if (!e || (e.status !== 'successful' && e.status !== 'failed')) return [];
  const id = e.testInvitationId;
  const message = typeof e.message === 'string' ? e.message : null;
  return typeof id === 'number' || typeof id === 'string' ? [{ testInvitationId: id, status: e.status, message }] : [];
}
