// `assess attempts wait <invitationId…> --until complete|any-terminal|started`: polls each
// invitation's report status until it reaches the target (like `gh run watch`). Changes go to
// stderr; the final status of each goes to stdout. Exit 0 reached, 4 unknown id (a 404, or the
// service's 401 "not found", as everywhere), 6 timeout (also when the polls kept failing
// transiently — 5xx, 429, the network — until then: they are retried with backoff),
// 1 ended in a state that cannot reach the target (Expired, Cancelled…; with --exit-status also
// any final state other than Complete). 429 / Retry-After are honoured by the transport.
import * as z from 'zod/mini';
import { ApiError, isTransient } from '../../api/errors.js';
import { describeError } from '../../cli/exit-codes.js';
import { fieldsOf } from '../../cli/json-fields.js';
import { defineCommand, arg, flag } from '../../cli/command.js';
import { CancelledError, NotFoundError, OutcomeError, UsageError, WaitTimeoutError } from '../../errors.js';
import { Printer } from '../../output/printer.js';
import { durationArg, fmt } from '../../util/duration.js';
import { parseIdArgs } from '../shared/invitation-ids.js';
import { safeText } from '../shared/statuses.js';
import { succeeded, UNTIL, verdict, type Until, type Verdict } from './shared/wait-target.js';

const COLUMNS = [
  { key: 'testInvitationId', header: 'Invitation', priority: 1, kind: 'id' },
  { key: 'status', header: 'Status', priority: 2, kind: 'status' },
  { key: 'outcome', header: 'Outcome', priority: 3, kind: 'status' },
] as const;
const FIELDS = fieldsOf(COLUMNS);
/** The longest pause between polls while they fail (unless --interval is longer). */
const MAX_BACKOFF_MS = 5 * 60_000;

export default defineCommand({
  name: 'wait',
  args: {
    ids: arg({ optional: true, variadic: true }, () => z._default(z.array(z.string()), [])),
  },
  description: 'Wait until invitations reach a status (complete, any-terminal, started); exit code says how it ended',
  examples: [
    'assess attempts wait 900001 --until complete',
    'assess attempts wait 900001 900002 --until any-terminal --interval 1m --timeout 8h',
    'assess attempts wait 900001 --until any-terminal --exit-status   # exit 1 unless it ended Complete',
    'assess attempts wait 900001 --until started && echo "the candidate has begun"',
  ],
  flags: {
    until: flag(
      `complete, any-terminal (Complete, Test Left, Terminated, Cancelled, Expired) or started`,
      { value: 'state', default: 'complete' },
      () => z.enum(UNTIL, { error: `must be one of ${UNTIL.join(', ')}, e.g. --until complete` }),
    ),
    interval: flag('time between polls', { value: 'duration', default: '30s' }, () =>
      durationArg('30s', 100, 86_400_000),
    ),
    timeout: flag(
      'give up after this long (exit 6); here not the per-request timeout (default 4h)',
      { value: 'duration' },
      () => z.pipe(z._default(z.string(), '4h'), durationArg('4h', 100, 30 * 86_400_000)),
    ),
    exitStatus: flag(
      'exit 1 when an invitation ended in any final state other than Complete (as gh run watch --exit-status)',
      () => z.optional(z.boolean()),
    ),
  },
  jsonFields: FIELDS,
  v2: { unsupported: 'it polls the v3 report status' },
  ownsGlobals: ['timeout'],
  async run(ctx, input) {
    if (!input.ids.length)
      throw new UsageError('<ids>: no invitation ids given', 'e.g. assess attempts wait 900001 --until complete');
    const ids = [...new Set(parseIdArgs(input.ids))];
    const client = await ctx.api();
    const until = input.until as Until;
    const state = new Map<string, { status: string; verdict: Verdict }>();
    const deadline = ctx.now().getTime() + input.timeout;
    /** The last poll that failed in a way the service may get over, while it lasts (cleared by a good round). */
    let failing: { err: unknown; rounds: number } | undefined;

    /** Polls one invitation; false when the poll failed transiently (polled again next round). */
    const poll = async (id: string): Promise<boolean> => {
      let status: string;
      try {
        status = String((await client.getReport(id, 1)).status);
      } catch (err) {
        if (ctx.signal.aborted) throw err;
        // a 404 with the service's own error, or its usual 401 "does not belong to this account or
        // was not found" (read as not_found in src/api/errors.ts): exit 4, as on every other
        // command; another server's 404 keeps its error, whose hint is the base URL
        if (err instanceof ApiError && err.kind === 'not_found' && err.fromService)
          throw new NotFoundError(
            `invitation ${id} not found (or it belongs to another account)`,
            'check the id: assess attempts list --state completed --from 7d --to now',
          );
        // a 5xx, a 429 or the network (refused, reset, timed out) after the transport's own
        // retries: the wait is long, so it keeps polling until its --timeout; anything else stops it
        if (!isTransient(err)) throw err;
        failing = { err, rounds: failing?.rounds ?? 0 };
        return false;
      }
      const before = state.get(id);
      const v = verdict(status, until);
      if (!before) ctx.info(`${id}: ${safeText(status)}`);
      else if (before.status !== status) ctx.info(`${id}: ${safeText(before.status)} → ${safeText(status)}`);
      state.set(id, { status, verdict: v });
      return true;
    };
    const open = () => ids.filter((id) => (state.get(id)?.verdict ?? 'waiting') === 'waiting');

    for (;;) {
      let failed = false;
      for (const id of open()) if (!(await poll(id))) failed = true;
      if (!failed) failing = undefined;
      if (!open().length || ctx.now().getTime() >= deadline || ctx.signal.aborted) break;
      let pause = input.interval;
      if (failing) {
        // back off while it keeps failing: the interval, doubled each failed round, up to 5 min
        // (or the interval when that is longer)
        failing.rounds++;
        pause = Math.min(
          input.interval * 2 ** Math.min(failing.rounds - 1, 20),
          Math.max(input.interval, MAX_BACKOFF_MS),
        );
        ctx.warn(
          `polling failed (${describeError(failing.err).message}); trying again in ${fmt(pause)} until the --timeout`,
        );
      }
      await new Promise<void>((r) => {
        const t = setTimeout(r, Math.min(pause, Math.max(0, deadline - ctx.now().getTime())));
        ctx.signal.addEventListener('abort', () => (clearTimeout(t), r()), { once: true });
      });
    }

    const rows = ids.map((id) => {
      const s = state.get(id);
      const outcome =
        !s || s.verdict === 'waiting'
          ? 'timed out'
          : s.verdict === 'unreachable' || (input.exitStatus && !succeeded(s.status))
            ? 'failed'
            : 'reached';
      return { testInvitationId: id, status: s?.status ?? null, outcome };
    });
    await new Printer(ctx).list(rows, {
      columns: COLUMNS,
      fields: FIELDS,
    });
    const late = rows.filter((r) => r.outcome === 'timed out');
    const failed = rows.filter((r) => r.outcome === 'failed');
    if (ctx.signal.aborted) throw new CancelledError();
    if (late.length) {
      const where = late.map((r) =>
        r.status === null ? `${r.testInvitationId} never read` : `${r.testInvitationId} is ${safeText(r.status)}`,
      );
      // the polls were failing when time ran out: that, not the candidate, is what to look at
      const lastError = failing && describeError(failing.err, ctx.env);
      throw new WaitTimeoutError(
        `timed out after ${fmt(input.timeout)}: ${where.join(', ')}${lastError ? `; the last poll failed: ${lastError.message}` : ''}`,
        lastError?.hint ?? 'wait longer with --timeout, e.g. --timeout 8h',
      );
    }
    if (failed.length) {
      // --exit-status fails a final state that did reach the target (any-terminal, started) but is
      // not Complete: that is not "cannot reach", it is "ended other than Complete"
      const unreachable = failed.filter((r) => state.get(String(r.testInvitationId))?.verdict === 'unreachable');
      const notComplete = failed.filter((r) => !unreachable.includes(r));
      const said = (list: typeof failed) =>
        list.map((r) => `${r.testInvitationId} ended ${safeText(r.status)}`).join(', ');
      const parts = [
        unreachable.length && `${said(unreachable)}: cannot reach ${until}`,
        notComplete.length && `${said(notComplete)}: reached ${until}, but not Complete (--exit-status)`,
      ].filter(Boolean);
      throw new OutcomeError(parts.join('; '), 'a reattempt gives the candidate another try: assess reattempt <id>');
    }
    ctx.info(`${rows.length === 1 ? 'The invitation' : `All ${rows.length} invitations`} reached ${until}.`);
  },
});
