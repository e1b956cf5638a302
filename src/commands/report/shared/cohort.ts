// The attempts of a window and their reports, as `report export` and `report stats` read them:
// one listing per state (operation 15), each attempt once, optionally one test's only; reports
// (operation 4) fetched with bounded concurrency on the bulk client (one 429 slows them all).
import { ApiError, NetworkError, ResponseShapeError } from '../../../api/errors.js';
import type { V3Client } from '../../../api/v3.js';
import type { ATTEMPT_STATES } from '../../../api/wire-constants.js';
import { runPool } from '../../../bulk/pool.js';

type Row = Record<string, unknown>;
export type AttemptState = (typeof ATTEMPT_STATES)[number];

/** The attempts listed for `state` in [from, to], each invitation once (first-seen order). */
export async function listCohort(
  client: V3Client,
  state: AttemptState,
  from: string,
  to: string,
  testId?: string,
): Promise<Row[]> {
  const listed = await client.listAttempts(state, from, to);
  const unique = [...new Map(listed.testAttempts.map((a) => [String(a.testInvitationId), a as Row])).values()];
  return testId === undefined ? unique : unique.filter((a) => String(a.testId) === testId);
}

/** A report that could not be fetched: the service refused it or the network failed. */
export function isItemFailure(err: unknown): err is ApiError | NetworkError | ResponseShapeError {
  if (err instanceof ApiError) return err.kind !== 'auth'; // a refused key fails every report: stop
  return err instanceof NetworkError || err instanceof ResponseShapeError;
}

export interface FetchedReports {
  reports: Row[];
  failures: Array<{ testInvitationId: unknown; error: Error }>;
}

/**
 * Fetches each attempt's report, at most `concurrency` at once; per-attempt failures are
 * collected, anything else (a refused key, a local fault) stops the pool and is thrown.
 * Reports come back in the listing's order.
 */
export async function fetchReports(
  client: V3Client,
  attempts: readonly Row[],
  opts: { concurrency: number; signal?: AbortSignal; reportType: 1 | 2 | 3; onSettled?: () => void },
): Promise<FetchedReports> {
  const byId = new Map<string, Row>();
  const failures: FetchedReports['failures'] = [];
  await runPool(attempts, { concurrency: opts.concurrency, signal: opts.signal }, async (a) => {
    try {
      byId.set(
        String(a.testInvitationId),
        (await client.getReport(String(a.testInvitationId), opts.reportType)) as Row,
      );
    } catch (err) {
      if (!isItemFailure(err)) throw err;
      failures.push({ testInvitationId: a.testInvitationId, error: err });
    } finally {
      opts.onSettled?.();
    }
  });
  const reports = attempts.map((a) => byId.get(String(a.testInvitationId))).filter((r): r is Row => r !== undefined);
  return { reports, failures };
}
