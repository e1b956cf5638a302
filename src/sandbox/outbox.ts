// The e-mails the sandbox "sends" (nothing leaves the machine; they are recorded in
// store.outbox): the candidate's invitation when sendEmail is `yes` (invite and reattempt), and
// one e-mail per stakeholder when an attempt reaches its terminal state.
import { pathOf } from '../api/operations/index.js';
import type { SandboxInvitation } from './model.js';
import type { Store } from './store.js';

export const testUrlPath = (inv: SandboxInvitation) => `/take/${inv.accessToken}`;

/**
 * Who gets the stakeholder e-mail: the invitation's own comma-separated list; `disable` turns
 * them off; no value means the test owner's address (the account e-mail, as v2 documents).
 */
export function stakeholderRecipients(value: string | null | undefined, ownerEmail: string): string[] {
  const v = (value ?? '').trim();
  if (v.toLowerCase() === 'disable') return [];
  if (!v) return ownerEmail ? [ownerEmail] : [];
  return [
    ...new Set(
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
}

export function sendInvitationEmail(store: Store, inv: SandboxInvitation, kind: 'invitation' | 'reattempt'): void {
  const test = store.test(inv.testId)!;
  store.recordEmail({
    accountId: inv.accountId,
    to: inv.email,
    subject: kind === 'reattempt' ? `You can retake: ${test.testName}` : `Invitation: ${test.testName}`,
    testInvitationId: inv.testInvitationId,
    testUrlPath: testUrlPath(inv),
    kind,
  });
}

/** On completion (Complete, Test Left, Terminated): one e-mail per stakeholder. */
export function sendStakeholderEmails(store: Store, inv: SandboxInvitation): number {
  const test = store.test(inv.testId)!;
  const owner = store.account(inv.accountId)?.ownerEmail ?? '';
  const to = stakeholderRecipients(inv.stakeholderEmails, owner);
  for (const address of to)
    store.recordEmail({
      accountId: inv.accountId,
      to: address,
      subject: `${inv.name} (${inv.email}) — ${test.testName}: ${inv.status}`,
      testInvitationId: inv.testInvitationId,
      testUrlPath: null,
      reportUrl: store.origin + pathOf('v3.getReportPdf', { testInvitationId: inv.testInvitationId }),
      kind: 'stakeholder',
    });
  return to.length;
}
