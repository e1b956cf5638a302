// The service reopens a cancelled or expired invitation when the candidate is invited again (or
// it is reattempted), and its answer is a plain Pending, as for a new one. So the closed
// invitations are looked up first (the service's cancelled and expired lists of the past year, two
// requests), and an answer naming one of them is said to have reopened it.
import { ApiError, NetworkError, ResponseShapeError } from '../../api/errors.js';
import type { V3Client } from '../../api/v3.js';
import { type Context, debugSink } from '../../context.js';
import { toApiTime } from '../../util/time.js';

const DAY = 86_400_000;
/** How far back the lists are read: an invitation closed longer ago than this is not recognised. */
export const LOOKBACK_DAYS = 365;

/** Invitation id → the status it had (Cancelled, Expired) before the invite. */
export type Closed = ReadonlyMap<string, string>;

/**
 * The cancelled and expired invitations (of the test and of `emails` only, when given). Best effort: a
 * list the service refuses or cannot answer leaves the notice out (said under --debug), never
 * the invite itself.
 */
export async function closedInvitations(
  ctx: Context,
  client: V3Client,
  testId: string | undefined,
  emails?: ReadonlySet<string>,
): Promise<Closed> {
  const now = ctx.now().getTime();
  // a day ahead: the service's clock may run ahead of this machine's
  const from = toApiTime(new Date(now - LOOKBACK_DAYS * DAY));
  const to = toApiTime(new Date(now + DAY));
  const closed = new Map<string, string>();
  try {
    // one after the other: a service that paces requests (or a sandbox injecting faults) sees them in order
    const lists = [await client.listAttempts('cancelled', from, to), await client.listAttempts('expired', from, to)];
    for (const a of lists.flatMap((l) => l.testAttempts)) {
      if (testId !== undefined && a.testId != null && String(a.testId) !== testId) continue;
      if (emails && !(a.email && emails.has(a.email.toLowerCase()))) continue;
      closed.set(String(a.testInvitationId), a.testStatus ?? 'closed');
    }
  } catch (err) {
    if (!(err instanceof ApiError || err instanceof NetworkError || err instanceof ResponseShapeError)) throw err;
    debugSink(ctx)?.(`closed invitations not looked up (${err.message}): a reopened one is not named`);
  }
  return closed;
}

/** The notice for an answer that reopened a closed invitation, or null; `by` says what reopened it. */
export function reopenedNotice(closed: Closed, id: string, by = 'inviting again'): string | null {
  const was = closed.get(id);
  if (!was) return null;
  return (
    `invitation ${id} was ${was}: ${by} reopened it (Pending again, its access window replaced); ` +
    'the candidate takes the test at the same URL'
  );
}
