// Completion notifications: what gets queued, and with which body. Delivery (HTTP POST with
// retries) is src/sandbox/delivery.ts, told about each entry by the onCallbackQueued hook.
import { pathOf } from '../api/operations/index.js';
import type { CallbackV2, CallbackV3 } from '../api/schemas/callback.js';
import type { CallbackQueueEntry, SandboxInvitation } from './model.js';
import { candidatePoints, performanceCategory, testPoints } from './scoring.js';
import { hasResult, sendsCallback } from './state-machine.js';
import type { Store } from './store.js';
import { MONTHS } from '../util/utc-text.js';

/** The callback body (PascalCase fields, as the service sends them; v2 invitations: v2 fields). */
export function callbackPayload(store: Store, inv: SandboxInvitation): CallbackV3 | CallbackV2 {
  const test = store.test(inv.testId)!;
  const total = testPoints(test);
  const scored = hasResult(inv.status) && inv.result;
  const cand = scored ? candidatePoints(inv.result!) : 0;
  const pct = Math.round((cand / total) * 100);
  if (inv.apiVersion === 'v2')
    return {
      CandidateEmailId: inv.email,
      AttemptedOn: inv.startedAt,
      TotalScore: total,
      CandidateScore: cand,
      ReportPDFUrl: scored
        ? store.origin + pathOf('v2.getReportPdf', { testInvitationId: inv.testInvitationId })
        : null,
      TestInvitationId: inv.testInvitationId,
    } satisfies CallbackV2;
  // As production sends them (vendor facts): AttemptedOn as "09-Oct-2020 06:51 PM" (shown in
  // UTC here: the sandbox does not know what a time zone id stands for), AttemptedOnUtc
  // without the Z, TotalScore 0 while the attempt is In Progress.
  return {
    CandidateEmailId: inv.email,
    AttemptedOn: inv.startedAt ? vendorDisplayTime(inv.startedAt) : null,
    AttemptedOnUtc: inv.startedAt ? inv.startedAt.replace(/(\.\d+)?Z$/, '') : null,
    TotalScore: scored ? total : 0,
    CandidateScore: cand,
    ReportPDFUrl: scored ? store.origin + pathOf('v3.getReportPdf', { testInvitationId: inv.testInvitationId }) : null,
    TestInvitationId: inv.testInvitationId,
    Status: inv.status,
    PerformanceCategory: scored ? performanceCategory(pct) : null,
  } satisfies CallbackV3;
}

/** `2020-10-09T18:51:07Z` → `09-Oct-2020 06:51 PM` (the production callback's AttemptedOn). */
export function vendorDisplayTime(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  const h = d.getUTCHours();
  const day = `${pad(d.getUTCDate())}-${MONTHS[d.getUTCMonth()]}-${d.getUTCFullYear()}`;
  return `${day} ${pad(h % 12 || 12)}:${pad(d.getUTCMinutes())} ${h < 12 ? 'AM' : 'PM'}`;
}

/** Queues a notification if the invitation has a callback URL and its state sends one. */
export function queueCallback(
  store: Store,
  inv: SandboxInvitation,
  reason: CallbackQueueEntry['reason'],
): CallbackQueueEntry | null {
  if (!inv.callbackUrl || !sendsCallback(inv.status)) return null;
  return store.enqueueCallback({
    testInvitationId: inv.testInvitationId,
    accountId: inv.accountId,
    url: inv.callbackUrl,
    status: inv.status,
    reason,
    payload: callbackPayload(store, inv),
  });
}
