// Invitation operations on the store: invite (default or chosen link), reattempt, cancel and the
// simulated candidate moves. Decisions come from the pure state machine; this file applies them.
import { randomBytes } from 'node:crypto';
import type { InviteByLinkRequest, InviteRequest, ReattemptRequest } from '../api/schemas/v3.js';
import { queueCallback } from './callbacks.js';
import type { SandboxInvitation, SandboxLink, SandboxTest } from './model.js';
import { sendInvitationEmail, sendStakeholderEmails, testUrlPath } from './outbox.js';
import { scoreAttempt } from './scoring.js';
import {
  accessWindowFromSchedule,
  cancelTransition,
  inviteOnExisting,
  overrideAccess,
  reattemptPlan,
  simulateTransition,
  type InviteDecision,
  type SimulateTo,
} from './state-machine.js';
import type { Store } from './store.js';

export { testUrlPath };

/** The test's default link, created on first use (validity 7 days, e-mail invitations). */
export function ensureDefaultLink(store: Store, test: SandboxTest): SandboxLink {
  const existing = test.defaultTestLinkId === null ? undefined : store.link(test.defaultTestLinkId);
  if (existing) return existing;
  const account = store.account(test.accountId)!;
  const now = store.nowIso();
  const link: SandboxLink = {
    testLinkId: store.nextId('testLink'),
    testId: test.testId,
    accountId: test.accountId,
    testLinkName: 'Default API link',
    testLink: store.newToken('tl'),
    testLinkStatus: 'active',
    invitationType: 'email',
    isApiLink: true,
    proctoringMode: 'disabled',
    stakeholderEmails: null,
    schedule: {
      scheduleType: 'validityindays',
      scheduleDetails: { invitationValidityInDays: 7, timeZoneId: account.defaultTimeZoneId },
    },
    createdAt: now,
    updatedAt: now,
  };
  test.defaultTestLinkId = link.testLinkId;
  store.addLink(link);
  store.changed({ test });
  return link;
}

type AnyInvite = (InviteRequest | InviteByLinkRequest) &
  Partial<Pick<InviteRequest, 'stakeholderEmails' | 'startDateTime' | 'endDateTime' | 'timeZoneId' | 'ProctoringMode'>>;

function randomIdentity(): { name: string; email: string } {
  const tag = randomBytes(5).toString('hex');
  return { name: `Candidate ${tag}`, email: `candidate-${tag}@sandbox.invalid` };
}

export interface InviteOutcome {
  inv: SandboxInvitation;
  created: boolean;
  decision: InviteDecision | null;
}

/**
 * The access window an invite would leave, checked before anything changes: the request's
 * start/end may contradict the link's (or the existing invitation's) other end. Null when fine.
 */
export function inviteWindowProblem(store: Store, link: SandboxLink, req: AnyInvite): string | null {
  if (!req.startDateTime && !req.endDateTime) return null;
  const latest = req.email ? store.latestAttempt(link.testLinkId, req.email) : undefined;
  const decision = latest ? inviteOnExisting(latest.status) : null;
  if (decision?.action === 'return') return null; // access is not touched
  const base =
    decision?.action === 'replace-access' ? latest! : accessWindowFromSchedule(link.schedule, store.clock.now());
  const w = overrideAccess(base, { startDateTime: req.startDateTime, endDateTime: req.endDateTime });
  if (w.accessStart && w.accessEnd && Date.parse(w.accessEnd) <= Date.parse(w.accessStart))
    return (
      `The invitation would end (${w.accessEnd}) before it starts ` +
      `(${w.accessStart}); send both startDateTime and endDateTime.`
    );
  return null;
}

/** An invitation's times and result before its attempt: made now, nothing started or ended. */
const notYetTaken = (now: string) => ({
  createdAt: now,
  updatedAt: now,
  startedAt: null,
  finishedAt: null,
  cancelledAt: null,
  expiredAt: null,
  result: null,
});

/** Who is invited: as asked, or a made-up identity when mandatory fields are switched off and missing. */
interface Invitee {
  email: string;
  name: string;
  generated: boolean;
}

/**
 * Invite on `link` (the default link or a chosen one). One attempt per candidate per link: an
 * existing invitation of the same e-mail (any case) follows the spec's invite table.
 */
export function invite(store: Store, test: SandboxTest, link: SandboxLink, req: AnyInvite): InviteOutcome {
  const now = store.nowIso();
  const generated = req.disableMandatoryFields === 1 && (!req.email || !req.name);
  const identity = generated ? randomIdentity() : null;
  const who: Invitee = { email: req.email || identity!.email, name: req.name || identity!.name, generated };
  const latest = store.latestAttempt(link.testLinkId, who.email);
  if (latest) return { inv: latest, created: false, decision: inviteAgain(store, latest, link, req, now) };
  const inv = newInvitation(store, test, link, req, who, now);
  store.addInvitation(inv);
  if (req.sendEmail === 'yes') sendInvitationEmail(store, inv, 'invitation');
  return { inv, created: true, decision: null };
}

const accessOf = (req: AnyInvite) => ({
  startDateTime: req.startDateTime,
  endDateTime: req.endDateTime,
  timeZoneId: req.timeZoneId,
});

/** The invite table's move on the candidate's latest invitation on the link (or none: 'return'). */
function inviteAgain(
  store: Store,
  latest: SandboxInvitation,
  link: SandboxLink,
  req: AnyInvite,
  now: string,
): InviteDecision {
  const decision = inviteOnExisting(latest.status);
  if (decision.action === 'return') return decision;
  const base = decision.action === 'reopen' ? accessWindowFromSchedule(link.schedule, store.clock.now()) : latest;
  Object.assign(
    latest,
    overrideAccess(
      { accessStart: base.accessStart, accessEnd: base.accessEnd, timeZoneId: base.timeZoneId },
      accessOf(req),
    ),
  );
  latest.status = decision.next;
  if (decision.action === 'reopen') latest.cancelledAt = latest.expiredAt = null;
  if (req.name) latest.name = req.name;
  const callbackUrl = req.callbackUrl ?? req.callbackURL;
  const redirectUrl = req.redirectUrl ?? req.redirectURL;
  if (callbackUrl) latest.callbackUrl = callbackUrl;
  if (redirectUrl) latest.redirectUrl = redirectUrl;
  latest.updatedAt = now;
  store.changed({ invitation: latest });
  if (req.sendEmail === 'yes') sendInvitationEmail(store, latest, 'invitation');
  return decision;
}

/** A new Pending invitation on `link`, its access window from the link's schedule unless the request sets it. */
function newInvitation(
  store: Store,
  test: SandboxTest,
  link: SandboxLink,
  req: AnyInvite,
  who: Invitee,
  now: string,
): SandboxInvitation {
  const window = overrideAccess(accessWindowFromSchedule(link.schedule, store.clock.now()), accessOf(req));
  const id = store.nextId('invitation');
  return {
    testInvitationId: id,
    accountId: test.accountId,
    testId: test.testId,
    testLinkId: link.testLinkId,
    email: who.email,
    name: who.name,
    status: 'Pending',
    invitationtype: 'api',
    accessToken: store.newToken(`inv-${id}`), // the id first: /take/<token> finds it by id
    callbackUrl: req.callbackUrl ?? req.callbackURL ?? null,
    redirectUrl: req.redirectUrl ?? req.redirectURL ?? null,
    hideInstruction: req.hideInstruction,
    sendEmail: req.sendEmail,
    // each invitation keeps its own value; omitted → the link's (or the test owner's)
    stakeholderEmails: req.stakeholderEmails ?? link.stakeholderEmails ?? store.account(test.accountId)!.ownerEmail,
    proctoringMode: req.ProctoringMode ?? link.proctoringMode,
    imageProctoring: req.imageProctoring ?? null,
    invitationType: link.invitationType,
    scheduleType: link.schedule.scheduleType,
    ...window,
    reattemptOf: null,
    generatedIdentity: who.generated,
    ...notYetTaken(now),
  };
}

export type ReattemptOutcome = { ok: true; inv: SandboxInvitation; created: boolean } | { ok: false; message: string };

/** The spec's reattempt table, plus "a new reattempt only after the previous one was taken". */
export function reattempt(store: Store, target: SandboxInvitation, req: ReattemptRequest): ReattemptOutcome {
  const latest = store.latestAttempt(target.testLinkId, target.email) ?? target;
  const plan = reattemptPlan(
    { id: target.testInvitationId, status: target.status },
    { id: latest.testInvitationId, status: latest.status },
  );
  const now = store.nowIso();
  const access = { accessStart: req.StartDateTime, accessEnd: req.EndDateTime, timeZoneId: req.TimeZoneId };
  const applyOptional = (inv: SandboxInvitation) => {
    if (req.CallbackUrl) inv.callbackUrl = req.CallbackUrl;
    if (req.RedirectUrl) inv.redirectUrl = req.RedirectUrl;
    inv.hideInstruction = req.hideInstruction;
  };
  switch (plan.action) {
    case 'refuse':
      return { ok: false, message: plan.message };
    case 'return-latest':
      return { ok: true, inv: store.invitation(plan.on)!, created: false };
    case 'replace-access':
    case 'reopen': {
      const inv = store.invitation(plan.on)!;
      Object.assign(inv, access, { status: plan.next, updatedAt: now, cancelledAt: null, expiredAt: null });
      applyOptional(inv);
      store.changed({ invitation: inv });
      if (req.sendEmail === 'yes') sendInvitationEmail(store, inv, 'reattempt');
      return { ok: true, inv, created: false };
    }
    case 'new-invitation': {
      const from = store.invitation(plan.from)!;
      // inherits everything except the access time and time zone (and the attempt itself)
      const id = store.nextId('invitation');
      const inv: SandboxInvitation = {
        ...structuredClone(from),
        ...access,
        testInvitationId: id,
        accessToken: store.newToken(`inv-${id}`),
        status: 'Pending',
        invitationtype: 'api',
        reattemptOf: from.testInvitationId,
        sendEmail: req.sendEmail,
        ...notYetTaken(now),
      };
      applyOptional(inv);
      store.addInvitation(inv);
      if (req.sendEmail === 'yes') sendInvitationEmail(store, inv, 'reattempt');
      return { ok: true, inv, created: true };
    }
  }
}

export function cancel(store: Store, inv: SandboxInvitation): { ok: true } | { ok: false; message: string } {
  const t = cancelTransition(inv.testInvitationId, inv.status);
  if (!t.ok) return t;
  inv.status = 'Cancelled';
  inv.cancelledAt = inv.updatedAt = store.nowIso();
  store.changed({ invitation: inv });
  return { ok: true };
}

/** Control API: move an attempt as a candidate (or the proctor) would. */
export function simulate(
  store: Store,
  inv: SandboxInvitation,
  to: SimulateTo,
  score: { percent?: number; sectionPercents?: number[] },
): { ok: true } | { ok: false; message: string } {
  const t = simulateTransition(inv.status, to);
  if (!t.ok) return t;
  const nowMs = store.clock.now();
  const now = store.nowIso();
  if ((to === 'start' || t.impliesStart) && inv.accessStart && Date.parse(inv.accessStart) > nowMs)
    return {
      ok: false,
      message: `Invitation ${inv.testInvitationId} opens at ${inv.accessStart}; advance the sandbox clock first.`,
    };
  if (to === 'start' || t.impliesStart) {
    inv.startedAt = now;
    inv.status = 'In Progress';
    queueCallback(store, inv, 'status-change');
  }
  inv.status = t.next;
  inv.updatedAt = now;
  if (to === 'expire') inv.expiredAt = now;
  if (t.next === 'Complete' || t.next === 'Test Left' || t.next === 'Terminated') {
    inv.finishedAt = now;
    inv.result = scoreAttempt(store.test(inv.testId)!, inv.testInvitationId, score);
    queueCallback(store, inv, 'status-change');
    sendStakeholderEmails(store, inv);
    store.changed({ invitation: inv });
    store.reportReady(inv); // rendered in the background, after this move has answered
    return { ok: true };
  }
  store.changed({ invitation: inv });
  return { ok: true };
}
