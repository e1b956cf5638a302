// Wire views of stored records (model → v3 JSON shapes).
import type { SandboxLink, SandboxTest } from './model.js';
import { sectionPoints, sectionQuestions, skillPoints, testDuration, testPoints, testQuestions } from './scoring.js';

export function testSummaryView(t: SandboxTest) {
  return {
    testId: t.testId,
    testName: t.testName,
    accessKey: t.accessKey,
    duration: testDuration(t),
    questions: testQuestions(t),
    testStatus: t.testStatus,
  };
}

export function testDetailView(t: SandboxTest) {
  return {
    ...testSummaryView(t),
    totalPoints: testPoints(t),
    defaultTestLinkId: t.defaultTestLinkId,
    sections: t.sections.map((s) => ({
      sectionId: s.sectionId,
      sectionName: s.sectionName,
      sectionType: s.sectionType === 'coding' ? 'Coding questions' : 'General questions',
      questions: sectionQuestions(s),
      duration: s.duration,
      points: sectionPoints(s),
      skills: s.skills.map((k) => ({ qbId: k.qbId, qbName: k.qbName, questions: k.questions, points: skillPoints(k) })),
    })),
  };
}

export function testLinkView(l: SandboxLink) {
  return {
    testLinkId: l.testLinkId,
    testId: l.testId,
    testLinkName: l.testLinkName,
    testLink: l.testLink,
    testLinkStatus: l.testLinkStatus,
    invitationType: l.invitationType,
    isApiLink: l.isApiLink,
    proctoringSettings: { proctoringMode: l.proctoringMode },
    stakeholderEmails: l.stakeholderEmails,
    invitationSchedule: l.schedule,
  };
}
