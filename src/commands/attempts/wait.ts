// `assess attempts wait <invitationId…> --until complete|any-terminal|started`: polls each
// invitation's report status until it reaches the target (like `gh run watch`). Changes go to
// stderr; the final status of each goes to stdout. Exit 0 reached, 3 unknown id (401, as everywhere; 4 on a 404), 6 timeout,
// 1 ended in a state that cannot reach the target (Expired, Cancelled…; with --exit-status also
// any final state other than Complete). 429 / Retry-After are honoured by the transport.
import * as z from 'zod/mini';
import { ApiError } from '../../api/errors.js';
import { fieldsOf } from '../../cli/json-fields.js';
import { defineCommand, arg, flag } from '../../cli/command.js';
import { CancelledError, NotFoundError, OutcomeError, UsageError, WaitTimeoutError } from '../../errors.js';
import { Printer } from '../../output/printer.js';
import { durationArg, fmt } from '../../util/duration.js';
import { refuseEmbeddedWait } from '../shared/live-sandbox.js';
import { parseIdArgs } from '../shared/invitation-ids.js';
import { safeText } from '../shared/statuses.js';
import { succeeded, UNTIL, verdict, type Until, type Verdict } from './shared/wait-target.js';

const COLUMNS = [
  { key: 'testInvitationId', header: 'Invitation', priority: 1, kind: 'id' },
  { key: 'status', header: 'Status', priority: 2, kind: 'status' },
  { key: 'outcome', header: 'Outcome', priority: 3, kind: 'status' },
] as const;
const FIELDS = fieldsOf(COLUMNS);

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
    until: flag(`complete, any-terminal (Complete, Test Left, Terminated, Cancelled, Expired) or started`, { value: 'state', default: 'complete' }, () =>
      z.enum(UNTIL, { error: `must be one of ${UNTIL.join(', ')}, e.g. --until complete` }),
    ),
    interval: flag('time between polls', { value: 'duration', default: '30s' }, () => durationArg('30s', 100, 86_400_000)),
    timeout: flag('give up after this long (exit 6); here not the per-request timeout (default 4h)', { value: 'duration' }, () =>
      z.pipe(z._default(z.string(), '4h'), durationArg('4h', 100, 30 * 86_400_000)),
    ),
    exitStatus: flag('exit 1 when an invitation ended in any final state other than Complete (as gh run watch --exit-status)', () => z.optional(z.boolean())),
  },
  jsonFields: FIELDS,
  v2: { unsupported: 'it polls the v3 report status' },
  ownsGlobals: ['timeout'],
  async run(ctx, input) {
    if (!input.ids.length) throw new UsageError('<ids>: no invitation ids given', 'e.g. assess attempts wait 5001 --until complete');
    const ids = [...new Set(parseIdArgs(input.ids))];
    const client = await ctx.api();
    const until = input.until as Until;
    const state = new Map<string, { status: string; verdict: Verdict }>();
    const deadline = ctx.now().getTime() + input.timeout;

    const poll = async (id: string) => {
      let status: string;
      try {
        status = String((await client.getReport(id, 1)).status);
      } catch (err) {
        // a 404, or the service's usual 401 "does not belong to this account or was not found"
        // (read as not_found in src/api/errors.ts): exit 4, as on every other command
        if (err instanceof ApiError && err.kind === 'not_found')
          throw new NotFoundError(
            `invitation ${id} not found (or it belongs to another account)`,
            'check the id: assess attempts list --state completed --from 7d --to now',
          );
        throw err;
      }
      const before = state.get(id);
      const v = verdict(status, until);
      if (!before) ctx.info(`${id}: ${safeText(status)}`);
      else if (before.status !== status) ctx.info(`${id}: ${safeText(before.status)} → ${safeText(status)}`);
      state.set(id, { status, verdict: v });
    };

    for (;;) {
      for (const id of ids) if (state.get(id)?.verdict !== 'reached' && state.get(id)?.verdict !== 'unreachable') await poll(id);
      const open = ids.filter((id) => state.get(id)!.verdict === 'waiting');
      if (!open.length || ctx.now().getTime() >= deadline || ctx.signal.aborted) break;
      await refuseEmbeddedWait(ctx, open, until);
      await new Promise<void>((r) => {
        const t = setTimeout(r, Math.min(input.interval, Math.max(0, deadline - ctx.now().getTime())));
        ctx.signal.addEventListener('abort', () => (clearTimeout(t), r()), { once: true });
      });
    }

    const rows = ids.map((id) => {
      const s = state.get(id)!;
      const outcome = s.verdict === 'waiting' ? 'timed out' : s.verdict === 'unreachable' || (input.exitStatus && !succeeded(s.status)) ? 'failed' : 'reached';
      return { testInvitationId: id, status: s.status, outcome };
    });
    await new Printer(ctx).list(rows, {
      columns: COLUMNS,
      fields: FIELDS,
    });
    const late = rows.filter((r) => r.outcome === 'timed out');
    const failed = rows.filter((r) => r.outcome === 'failed');
    if (ctx.signal.aborted) throw new CancelledError();
    if (late.length)
      throw new WaitTimeoutError(
        `timed out after ${fmt(input.timeout)}: ${late.map((r) => `${r.testInvitationId} is ${safeText(r.status)}`).join(', ')}`,
        'wait longer with --timeout, e.g. --timeout 8h',
      );
    if (failed.length) {
      // --exit-status fails a final state that did reach the target (any-terminal, started) but is
      // not Complete: that is not "cannot reach", it is "ended other than Complete"
      const unreachable = failed.filter((r) => state.get(String(r.testInvitationId))!.verdict === 'unreachable');
      const notComplete = failed.filter((r) => !unreachable.includes(r));
      const said = (list: typeof failed) => list.map((r) => `${r.testInvitationId} ended ${safeText(r.status)}`).join(', ');
      const parts = [
        unreachable.length && `${said(unreachable)}: cannot reach ${until}`,
        notComplete.length && `${said(notComplete)}: reached ${until}, but not Complete (--exit-status)`,
      ].filter(Boolean);
      throw new OutcomeError(parts.join('; '), 'a reattempt gives the candidate another try: assess reattempt <id>');
    }
    ctx.info(`All ${rows.length} invitation(s) reached ${until}.`);
  },
});
