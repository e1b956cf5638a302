// `assess callbacks process <ids…> | --file F` (operation 16): any number of ids, sent in
// chunks of at most 100, merged into one successful/failed result (exit 5 when any failed). The
// chunks go out as a bulk run's requests do: at most --concurrency at once, at the service's pace
// (found from its 429s, src/api/pace.ts) or --rate.
import * as z from 'zod/mini';
import { ApiError } from '../../api/errors.js';
import { ATTEMPT_STATES, MAX_CALLBACK_IDS } from '../../api/wire-constants.js';
import type { V3Client } from '../../api/v3.js';
import { defineCommand, zx, arg, flag } from '../../cli/command.js';
import { RATE_HELP, rateFlag } from '../../bulk/rate-flag.js';
import type { Context } from '../../context.js';
import { CancelledError, PartialFailureError, UsageError } from '../../errors.js';
import { INPUT_MAX_BYTES, readInputText } from '../../util/small-file.js';
import { fieldsOf } from '../../cli/json-fields.js';
import { Printer, type Column } from '../../output/printer.js';
import { idsFromAttempts } from './shared/from-attempts.js';
import { chunk, dedupe, idsNamedIn, parseIdArgs, parseIdText } from '../shared/invitation-ids.js';

export type CallbackResult = {
  testInvitationId: number | string;
  status: 'successful' | 'failed';
  message: string | null;
};

const COLUMNS: Column<Reported>[] = [
  { key: 'testInvitationId', header: 'Invitation', priority: 1, kind: 'id' },
  { key: 'status', header: 'Result', priority: 2, kind: 'status' },
  { key: 'message', header: 'Message', priority: 3 },
];
/** One result row per invitation; these are the only fields `--json a,b` may pick. */
const FIELDS = fieldsOf(COLUMNS);

export default defineCommand({
  name: 'process',
  args: {
    ids: arg({ optional: true, variadic: true }, () => z._default(z.array(z.string()), [])),
  },
  description: `Re-queue completion notifications for invitations (any number; sent ${MAX_CALLBACK_IDS} per request)`,
  examples: [
    'assess callbacks process 900001 900002 900003',
    'assess callbacks process --file ids.txt --json',
    'cut -f1 completed.tsv | assess callbacks process --file -',
    'assess callbacks process --from-attempts --state completed --from 1d --to now',
  ],
  flags: {
    file: flag(
      'read ids from this file (- for standard input): one per line or comma/space separated, # comments',
      { value: 'file', stdin: ['-'] },
      () => z.optional(z.string().check(z.minLength(1, 'must name a file, or - for standard input'))),
    ),
    fromAttempts: flag('take the ids of every attempt listed by --state, --from and --to', () =>
      z.optional(z.boolean()),
    ),
    // checked with the attempts list's schema once --from-attempts is known to be there
    state: flag('with --from-attempts: completed, cancelled or expired', { value: 'state' }, () =>
      z.optional(z.string().register(z.globalRegistry, { completion: ATTEMPT_STATES })),
    ),
    from: flag(
      'with --from-attempts: window start (YYYY-MM-DD, ISO 8601 or relative: -1d, "1d ago", yesterday)',
      { value: 'T' },
      () => z.optional(z.string()),
    ),
    to: flag('with --from-attempts: window end', { value: 'T' }, () => z.optional(z.string())),
    concurrency: flag('most requests in flight at once (default: profile concurrency, else 8)', { value: 'n' }, () =>
      z.optional(zx.int(1, 64, 8)),
    ),
    rate: flag(RATE_HELP, { value: 'N/s' }, () => z.optional(rateFlag())),
  },
  jsonFields: FIELDS,
  v2: { unsupported: 'v2 cannot reprocess callbacks' },
  async run(ctx, input) {
    const listed = await idsFromAttempts(ctx, input, { args: input.ids.length, file: input.file !== undefined });
    if (listed && !listed.length)
      return void (await new Printer(ctx).list([], {
        columns: [{ key: 'testInvitationId', header: 'Invitation', priority: 1 }],
      }));
    const ids = dedupe(listed ?? (await collectIds(ctx, input.ids, input.file)));
    const [{ Pace }, { bulkClient, defaultConcurrency }, { runPool }] = await Promise.all([
      import('../../api/pace.js'),
      import('../../bulk/client.js'),
      import('../../bulk/pool.js'),
    ]);
    const pace = new Pace({ cap: input.rate });
    const client = await bulkClient(ctx, pace);
    const concurrency = input.concurrency ?? (await defaultConcurrency(ctx));
    const batches = chunk(ids, MAX_CALLBACK_IDS);
    const answered: CallbackResult[][] = [];
    // Ctrl-C: no new request; the ones sent finish (a second Ctrl-C stops at once)
    await runPool(batches.entries(), { concurrency, signal: ctx.signal }, async ([i, batch]) => {
      if (batches.length > 1) ctx.info(`Request ${i + 1} of ${batches.length} (${batch.length} ids)…`);
      answered[i] = await processChunk(client, batch);
    });
    if (ctx.signal.aborted) {
      const sent = answered.filter(Boolean).length;
      throw new CancelledError(
        `interrupted after ${sent} of ${batches.length} request(s); run it again with the same ids (re-queueing is safe to repeat)`,
      );
    }
    const results: Reported[] = listed ? asNotRegistered(answered.flat()) : answered.flat();
    if (pace.throttled)
      ctx.info(
        `${pace.throttled} request(s) answered 429 (too many requests) were sent again${pace.current() ? ` at ${pace.current()!.toFixed(1)}/s` : ''}.`,
      );
    const failed = results.filter((r) => r.status === 'failed');
    const unregistered = results.filter((r) => r.status === NOT_REGISTERED).length;
    await new Printer(ctx).list(results, { columns: COLUMNS, fields: FIELDS });
    if (unregistered)
      ctx.info(
        `${unregistered} attempt(s) are not registered for a notification (no callback URL: the service answered "failed" for them). That is not a failure.`,
      );
    const summary = `${results.length - failed.length - unregistered} of ${results.length} invitations queued for callback reprocessing, ${unregistered ? `${unregistered} not registered, ` : ''}${failed.length} failed`;
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
  },
});

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

/** A result as shown: the service's, or `not registered` (--from-attempts). */
type Reported = Omit<CallbackResult, 'status'> & { status: CallbackResult['status'] | typeof NOT_REGISTERED };

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

/** The message of an id the service listed as failed (it gives no reason of its own). */
export const SERVICE_FAILED = 'reported as failed by the service';

const wire = (id: string): number | string => (Number.isSafeInteger(Number(id)) ? Number(id) : id);

/**
 * One chunk. A 401 naming ids of the chunk marks those ids failed (with the service's message)
 * and sends the rest of the chunk again; a 401 naming none of them (e.g. a refused key) stops.
 */
export async function processChunk(client: V3Client, ids: string[]): Promise<CallbackResult[]> {
  const byId = new Map<string, CallbackResult>();
  const record = (id: string, status: CallbackResult['status'], message: string | null) =>
    byId.set(id, { testInvitationId: wire(id), status, message });
  const inOrder = () => ids.map((id) => byId.get(id)!);
  let pending = ids;
  while (pending.length) {
    try {
      const res = await client.processCallbacks(pending);
      // An answer that lists neither (e.g. an empty 200) is taken as "queued": the call succeeded.
      const lists = res.testinvitationIds;
      const silent = !lists || (lists.successful == null && lists.failed == null);
      const ok = new Set((silent ? pending : (lists.successful ?? [])).map(String));
      const bad = new Set((lists?.failed ?? []).map(String));
      for (const id of pending) {
        if (ok.has(id)) record(id, 'successful', null);
        else if (bad.has(id)) record(id, 'failed', SERVICE_FAILED);
        else record(id, 'failed', 'not in the service response');
      }
      return inOrder();
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 401) throw err;
      const { ids: named, message } = idsNamedIn(err.messages, pending);
      if (!named.length) throw err;
      for (const id of named) record(id, 'failed', message);
      pending = pending.filter((id) => !named.includes(id));
    }
  }
  return inOrder();
}
