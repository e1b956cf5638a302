// How the v3 client reads each answer: tolerant schemas built with the policy's blocks. Only
// what a command needs to act is required (a listing's rows, their ids); everything else may be
// absent, null, differently spelled or typed. The strict wire schemas (src/api/schemas/) stay
// what the sandbox answers and the OpenAPI document describes.
import * as z from 'zod/mini';
import {
  attemptInvitationType,
  id,
  invitationStatus,
  invitationType,
  linkStatus,
  list,
  obj,
  optBool,
  optId,
  optList,
  optNum,
  optObj,
  optText,
  proctoringMode,
  scheduleType,
  testStatus,
  foldKey,
  arrayAs,
} from './policy.js';

// 1, 2: tests

/** A test as listed; v2 lists the same fields (read/v2.ts). */
export const testSummaryShape = () => ({
  testId: id,
  testName: optText,
  accessKey: optText,
  duration: optNum,
  questions: optNum,
  testStatus: testStatus.schema,
});
export const TestSummary = obj(testSummaryShape());
export type TestSummary = z.infer<typeof TestSummary>;

export const TestsList = z.pipe(
  z.transform(arrayAs('tests')),
  obj({ tests: list(TestSummary), pageNo: optNum, pageSize: optNum, totalCount: optNum }),
);
export type TestsList = z.infer<typeof TestsList>;

const TestSkill = obj({ qbId: optId, qbName: optText, questions: optNum, points: optNum });
const TestSection = obj({
  sectionId: optId,
  sectionName: optText,
  sectionType: optText,
  questions: optNum,
  duration: optNum,
  points: optNum,
  skills: optList(TestSkill),
});
export type TestSection = z.infer<typeof TestSection>;

export const TestDetail = obj({
  testId: optId,
  testName: optText,
  accessKey: optText,
  duration: optNum,
  questions: optNum,
  testStatus: testStatus.schema,
  sections: optList(TestSection),
  totalPoints: optNum,
  defaultTestLinkId: optId,
});
export type TestDetail = z.infer<typeof TestDetail>;

// 6, 7, 11, 12: test links

const ScheduleDetails = optObj({
  startDateTime: optText,
  endDateTime: optText,
  timeZoneId: optId,
  invitationValidityInDays: optNum,
});
export const TestLink = obj({
  testLinkId: id,
  testId: optId,
  testLinkName: optText,
  testLink: optText,
  testLinkStatus: linkStatus.schema,
  invitationType: invitationType.schema,
  isApiLink: optBool,
  proctoringSettings: optObj({ proctoringMode: proctoringMode.schema }),
  stakeholderEmails: optText,
  invitationSchedule: optObj({ scheduleType: scheduleType.schema, scheduleDetails: ScheduleDetails }),
});
export type TestLink = z.infer<typeof TestLink>;

export const TestLinks = z.pipe(z.transform(arrayAs('testLinks')), obj({ testLinks: list(TestLink) }));
export type TestLinks = z.infer<typeof TestLinks>;

/** What a create or update answers: the link, though it may lack its id (the write succeeded). */
export const WrittenLink = obj({ ...TestLink.def.out.shape, testLinkId: optId });
export type WrittenLink = z.infer<typeof WrittenLink>;

// 3, 8, 9, 10: invitations (writes: nothing is required, see read.ts)

export const Invitation = obj({ testInvitationId: optId, testUrl: optText, status: invitationStatus.schema });
export type Invitation = z.infer<typeof Invitation>;

export const Reattempt = obj({
  testInvitationId: optId,
  testUrl: optText,
  callbackUrlRegistered: optText,
  redirectUrlRegistered: optText,
});
export type Reattempt = z.infer<typeof Reattempt>;

export const Cancelled = obj({ testInvitationId: optId, status: invitationStatus.schema });
export type Cancelled = z.infer<typeof Cancelled>;

// 4: report

const ReportSkill = obj({
  candidateQbScore: optNum,
  qbScore: optNum,
  noOfQue: optNum,
  qbId: optId,
  qbName: optText,
  sectionId: optId,
  sectionName: optText,
});
export type ReportSkill = z.infer<typeof ReportSkill>;

const ReportSection = obj({
  candidateScore: optNum,
  sectionScore: optNum,
  noOfQue: optNum,
  sectionId: optId,
  sectionName: optText,
  sectionTime: optNum,
  sectionTimeTaken: optNum,
  Skills: optList(ReportSkill),
});
export type ReportSection = z.infer<typeof ReportSection>;

export const Report = obj({
  testInvitationId: optId,
  /** A String in the spec; read as text whatever it arrives as. */
  testId: optText,
  candidateEmail: optText,
  candidateName: optText,
  attemptedOn: optText,
  status: invitationStatus.schema,
  score: optNum,
  scorePercentage: optNum,
  candidatePoints: optNum,
  totalTestPoints: optNum,
  testName: optText,
  pdfReportUrl: optText,
  PerformanceCategory: optText,
  reportType: optNum,
  sections: optList(ReportSection),
  Skills: optList(ReportSkill),
});
export type Report = z.infer<typeof Report>;

// 15, 16: attempts and callbacks (their `{result, errors}` envelope is taken off before)

export const TestAttempt = obj({
  testInvitationId: id,
  testId: optId,
  name: optText,
  email: optText,
  invitationtype: attemptInvitationType.schema,
  testStatus: invitationStatus.schema,
});
export type TestAttempt = z.infer<typeof TestAttempt>;

export const TestAttempts = z.pipe(z.transform(arrayAs('testAttempts')), obj({ testAttempts: list(TestAttempt) }));
export type TestAttempts = z.infer<typeof TestAttempts>;

export const ProcessedCallbacks = obj({
  testinvitationIds: optObj({ successful: optList(id), failed: optList(id) }),
});
export type ProcessedCallbacks = z.infer<typeof ProcessedCallbacks>;

// 13, 14: settings (field names from the spec's table; values read as numbers where they are)

const flags = (...names: string[]) => Object.fromEntries(names.map((n) => [n, optNum]));
export const Settings = obj({
  testSettings: optObj({ testName: optText, testAliasName: optText, ...flags('typeOfTest', 'practiceTest') }),
  questionSettings: optObj(flags('randomQuestions', 'randomAnswers', 'showQuestionScore')),
  displayMessageSettings: optObj(flags('sectionEndPopup', 'sectionTimeLeftAlert', 'candidateFeedback')),
  emailSettings: optObj(flags('sendTestReportEmailToCandidate')),
  imageProctoringSettings: optObj(flags('terminateTestOnImageViolation', 'terminateTestAfterViolationCount')),
  windowViolationSettings: optObj({
    ...flags('copyPaste'),
    displayViolationSettings: optObj(
      flags('displayViolationPopUp', 'terminateTestOnWindowViolation', 'terminateTestAfterViolationCount'),
    ),
  }),
});
export type Settings = z.infer<typeof Settings>;

// Time zones (the vendor's list operation; its body is not public, so any list of objects with
// an id and a name is read: {timeZones|timezones|result|data: […]} or a bare array)

export const TimeZone = obj({ timeZoneId: id, name: optText, displayName: optText, utcOffset: optText });
export type TimeZone = z.infer<typeof TimeZone>;

/** Other names the same fields plausibly have (id, ianaName, description, offset), in any case. */
const ZONE_ALIASES: Record<string, string[]> = {
  timeZoneId: ['id', 'zoneId'],
  name: ['timeZoneName', 'ianaName', 'zoneName', 'ianaId'],
  displayName: ['description', 'label', 'display'],
  utcOffset: ['offset', 'baseUtcOffset'],
};

function zoneFields(v: unknown): unknown {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
  const o = v as Record<string, unknown>;
  const byFold = new Map(Object.keys(o).map((k) => [foldKey(k), k]));
  const out = { ...o };
  for (const [to, from] of Object.entries(ZONE_ALIASES)) {
    const key = [to, ...from].map((k) => byFold.get(foldKey(k))).find((k) => k !== undefined && o[k] !== undefined);
    if (key !== undefined) out[to] = o[key];
  }
  return out;
}

export const TimeZones = z.pipe(
  z.transform((v) => {
    // a bare list, or the first list inside whatever object holds it
    if (Array.isArray(v)) return { timeZones: v };
    if (v && typeof v === 'object' && !('timeZones' in v)) {
      const found = Object.values(v).find(Array.isArray);
      if (found) return { timeZones: found };
    }
    return v;
  }),
  obj({ timeZones: list(z.pipe(z.transform(zoneFields), TimeZone)) }),
);
export type TimeZones = z.infer<typeof TimeZones>;
