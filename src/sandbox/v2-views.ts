// v2 views of the records v3 also serves (model → v2 JSON shapes), and the reverse mapping of a
// v2 link's access settings onto the stored v3 schedule. The mapping rules are the ones
// docs/v2-to-v3.md and `links migrate` use, so both APIs describe one link the same way.
import { toV2DateTime } from '../api/schemas/v2.js';
import type { InvitationStatus } from '../api/schemas/v3.js';
import type { Account, SandboxInvitation, SandboxLink, SandboxTest, Schedule } from './model.js';
import { candidatePoints, sectionPoints, testDuration, testPoints, testQuestions } from './scoring.js';
import { hasResult } from './state-machine.js';
import { testSummaryView } from './views.js';

/** v2 has no validity in days: an "anytime" link (accessTime 0) is stored as this many days. */
export const ANYTIME_VALIDITY_DAYS = 3650;

export const ok = (description: string, result: unknown) => ({ statuscode: '200.1', description, result });

/** The v2 list shape is the one the sandbox's v3 list uses too (chosen from v2's documented fields). */
export const v2TestSummary = testSummaryView;

export function v2TestDetail(t: SandboxTest) {
  return {
    ...v2TestSummary(t),
    sections: t.sections.map((s) => ({
      sectionName: s.sectionName,
      sectionType: s.sectionType === 'coding' ? 'Coding questions' : 'General questions',
      questions: s.skills.reduce((a, k) => a + k.questions, 0),
      duration: s.duration,
    })),
  };
}

/** validityindays → 0 (anytime), timebound → 1, slotwise → 2. */
export function accessTimeOf(s: Schedule): 0 | 1 | 2 {
  return s.scheduleType === 'timebound' ? 1 : s.scheduleType === 'slotwise' ? 2 : 0;
}

export function v2LinkView(l: SandboxLink) {
  const window = l.schedule.scheduleType === 'validityindays' ? null : l.schedule.scheduleDetails;
  return {
    testLinkId: l.testLinkId,
    testId: l.testId,
    testLinkName: l.testLinkName,
    testLinkAccessKey: l.testLink,
    accessTime: accessTimeOf(l.schedule),
    startDateTime: window ? toV2DateTime(window.startDateTime) : null,
    endDateTime: window ? toV2DateTime(window.endDateTime) : null,
    timeZoneId: l.schedule.scheduleDetails.timeZoneId,
    inviteCandidateOnly: l.invitationType === 'email' ? 1 : 0,
    // v2 knows image proctoring only: a video-proctored link reads as 0 here
    imageProctoring: l.proctoringMode === 'image' ? 1 : 0,
    emailToStakeholder: l.stakeholderEmails,
    testLinkStatus: l.testLinkStatus === 'active' ? 1 : 3,
  };
}

/** The stored schedule for v2 access settings (dates already in the v3 `…Z` form). */
export function scheduleFromV2(
  accessTime: 0 | 1 | 2,
  timeZoneId: number,
  start: string | null | undefined,
  end: string | null | undefined,
  current?: Schedule,
): Schedule {
  if (accessTime === 0) {
    const days =
      current?.scheduleType === 'validityindays'
        ? current.scheduleDetails.invitationValidityInDays
        : ANYTIME_VALIDITY_DAYS;
    return { scheduleType: 'validityindays', scheduleDetails: { invitationValidityInDays: days, timeZoneId } };
  }
  return {
    scheduleType: accessTime === 1 ? 'timebound' : 'slotwise',
    scheduleDetails: { startDateTime: start!, endDateTime: end!, timeZoneId },
  };
}

/** v2 report testStatus. v2 names only Pending, In progress, Completed and Reset. */
export function v2TestStatus(s: InvitationStatus): string {
  switch (s) {
    case 'In Progress':
      return 'In progress';
    case 'Complete':
    case 'Test Left':
    case 'Terminated':
      return 'Completed'; // every ended attempt has a result
    default:
      return s; // Pending; Cancelled and Expired have no v2 word and are passed through
  }
}

export function v2ReportStatus(s: InvitationStatus): 'Pending' | 'In progress' | 'Generated' {
  return hasResult(s) ? 'Generated' : s === 'In Progress' ? 'In progress' : 'Pending';
}

export function v2Report(test: SandboxTest, inv: SandboxInvitation) {
  const r = hasResult(inv.status) ? inv.result : null;
  const seconds = r ? r.sections.reduce((a, s) => a + s.timeTakenSec, 0) : 0;
  // window violations: a stable number per attempt (the sandbox has no proctor)
  const wv = r ? inv.testInvitationId % 4 : 0;
  return {
    testInvitationId: inv.testInvitationId,
    emailId: inv.email,
    fullName: inv.name,
    timeTaken: Math.round(seconds / 60),
    testName: test.testName,
    duration: testDuration(test),
    questions: testQuestions(test),
    attemptedOn: inv.startedAt ? toV2DateTime(inv.startedAt) : null,
    totalScore: String(testPoints(test)),
    score: r ? String(candidatePoints(r)) : null,
    wv,
    tv: wv * 23,
    testStatus: v2TestStatus(inv.status),
    reportStatus: v2ReportStatus(inv.status),
  };
}

/** Section scores; empty before the attempt has a result (as the v3 report has no sections then). */
export function v2SectionReport(test: SandboxTest, inv: SandboxInvitation) {
  const r = hasResult(inv.status) ? inv.result : null;
  if (!r) return [];
  return test.sections.map((s, i) => ({
    sectionName: s.sectionName,
    sectionScore: sectionPoints(s),
    candidateScore: r.sections[i].skills.reduce((a, k) => a + k.points, 0),
  }));
}

/** `testAccessTime` of register via link: the invitation's window in words (UTC, v2 dates). */
export function testAccessTimeText(link: SandboxLink, inv: SandboxInvitation): string {
  const from = inv.accessStart ? toV2DateTime(inv.accessStart) : null;
  const to = inv.accessEnd ? toV2DateTime(inv.accessEnd) : null;
  const s = link.schedule;
  if (s.scheduleType === 'slotwise' && from && to)
    return (
      `Slot wise: daily ${from.slice(11, 16)}-${to.slice(11, 16)} UTC, from ${from.slice(0, 10)} to ` +
      `${to.slice(0, 10)}`
    );
  if (s.scheduleType === 'timebound' && from && to) return `Time bound: from ${from} to ${to} UTC`;
  if (s.scheduleType === 'validityindays')
    return `Anytime: valid for ${s.scheduleDetails.invitationValidityInDays} days${to ? `, until ${to} UTC` : ''}`;
  return from && to ? `From ${from} to ${to} UTC` : 'Anytime';
}

/** emailToStakeholder default: the account e-mail (spec). */
export const defaultStakeholder = (a: Account) => a.ownerEmail;
