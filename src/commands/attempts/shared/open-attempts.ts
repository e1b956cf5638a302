// `attempts list --state pending | in-progress`: the service lists completed, cancelled and
// expired attempts only, so who has not started (or is taking the test now) comes from the
// invitations this profile made (its ledger), checked against the service: an invitation in one
// of its three lists is settled; for each of the others its report tells Pending from In Progress.
// Invitations made elsewhere (the web app, another machine or profile) are not known here.
import { ApiError, NetworkError, ResponseShapeError } from '../../../api/errors.js';
import { ATTEMPT_STATES } from '../../../api/wire-constants.js';
import type { V3Client } from '../../../api/v3.js';
import { defaultConcurrency } from '../../../bulk/client.js';
import { runPool } from '../../../bulk/pool.js';
import type { Context } from '../../../context.js';
import { PartialFailureError } from '../../../errors.js';
import type { OpenAttempt, OpenState } from './open-columns.js';
import type { LedgerRow } from '../../shared/ledger.js';
import { noteOldLedger, withLedger } from '../../shared/record-invite.js';
import { normStatus } from '../../shared/statuses.js';
import { plural } from '../../../util/plural.js';

const WANTED: Record<OpenState, string> = { pending: 'pending', 'in-progress': 'in progress' };

/**
 * The invitations made between `from` and `to` whose attempt is in `state` now. An invitation
 * whose report cannot be read is left out and counted; the caller prints the rest first.
 */
export async function openAttempts(
  ctx: Context,
  state: OpenState,
  from: string,
  to: string,
): Promise<{ rows: OpenAttempt[]; unchecked: string[] }> {
  const { made, path } = await withLedger(ctx, async (ledger) => ({
    made: ledger.store.read(() => ledger.madeBetween(iso(from), endOf(to))),
    path: ledger.store.path,
  }));
  noteOldLedger(ctx, path);
  ctx.info(
    `${state}: from the ${plural(made.length, 'invitation')} this profile made between ${from} and ${to} ` +
      `(its ledger, ${path}), checked against the service, which cannot list ${state} attempts itself; ` +
      'invitations made elsewhere (the web app, another machine or profile) are not among them.',
  );
  if (!made.length) return { rows: [], unchecked: [] };
  const client = await ctx.api();
  const settled = await closedIds(
    client,
    from,
    ctx
      .now()
      .toISOString()
      .replace(/\.\d{3}Z$/, 'Z'),
  );
  const open = made.filter((r) => !settled.has(r.invitationId!));
  const status = new Map<string, string>();
  const unchecked: string[] = [];
  const concurrency = await defaultConcurrency(ctx);
  await runPool(open, { concurrency, signal: ctx.signal }, async (r) => {
    const id = r.invitationId!;
    try {
      status.set(id, (await client.getReport(id, 1)).status ?? '');
    } catch (err) {
      if (!(err instanceof ApiError || err instanceof NetworkError || err instanceof ResponseShapeError)) throw err;
      if (err instanceof ApiError && err.kind === 'auth') throw err;
      if (err instanceof ApiError && err.kind === 'not_found') return; // gone from the account: neither state
      unchecked.push(id);
    }
  });
  const rows = open
    .filter((r) => normStatus(status.get(r.invitationId!)) === WANTED[state])
    .map((r) => rowOf(r, status));
  return { rows, unchecked };
}

/** Every invitation the service lists as completed, cancelled or expired in the window. */
async function closedIds(client: V3Client, from: string, to: string): Promise<Set<string>> {
  const lists = await Promise.all(ATTEMPT_STATES.map((s) => client.listAttempts(s, from, to)));
  return new Set(lists.flatMap((l) => l.testAttempts.map((a) => String(a.testInvitationId))));
}

function rowOf(r: LedgerRow, status: Map<string, string>): OpenAttempt {
  return {
    testInvitationId: r.invitationId!,
    testId: r.testId,
    name: r.name,
    email: r.email,
    testStatus: status.get(r.invitationId!)!,
    invitedAt: r.at,
    invitedVia: r.via,
    sendEmail: r.sendEmail,
    testUrl: r.testUrl,
  };
}

/** A flag's time (`2026-03-01T00:00:00Z`) as the ledger writes times, so they compare as text. */
const iso = (t: string) => new Date(t).toISOString();
/** Times are given to the second; the ledger's have milliseconds: the window's end takes its whole second. */
const endOf = (t: string) => new Date(Math.floor(Date.parse(t) / 1000) * 1000 + 999).toISOString();

/** Exit 5 when some invitations could not be checked (what could be is printed first). */
export function uncheckedError(unchecked: string[], checked: number): PartialFailureError {
  return new PartialFailureError(
    `${plural(unchecked.length, 'invitation')} could not be checked against the service ` +
      `(${unchecked.slice(0, 5).join(', ')}${unchecked.length > 5 ? ', …' : ''}); run it again to check them`,
    unchecked.length,
    checked + unchecked.length,
  );
}
