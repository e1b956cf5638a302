// How the v3 client reads each answer: tolerant schemas built with the policy's blocks. Only
// what a command needs to act is required (a listing's rows, their ids); everything else may be
// absent, null, differently spelled or typed. The strict wire schemas (src/api/schemas/) stay
// what the sandbox answers and the OpenAPI document describes.
import * as z from 'zod';
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
import { once } from '../../util/once.js';

// 1, 2: tests

/** A test as listed; v2 lists the same fields (read/v2.ts). */
export const testSummaryShape = () => ({
  testId: id(),
  testName: optText(),
  accessKey: optText(),
  duration: optNum(),
  questions: optNum(),
  testStatus: testStatus.schema,
});
export const TestSummary = once(() => obj(testSummaryShape()));
export type TestSummary = z.infer<ReturnType<typeof TestSummary>>;

export const TestsList = once(() =>
  z.preprocess(arrayAs('tests'), obj({ tests: list(TestSummary()), pageNo: optNum(), pageSize: optNum(), totalCount: optNum() })),
);
export type TestsList = z.infer<ReturnType<typeof TestsList>>;

const TestSkill = once(() => obj({ qbId: optId(), qbName: optText(), questions: optNum(), points: optNum() }));
const TestSection = once(() =>
  obj({
    sectionId: optId(),
    sectionName: optText(),
    sectionType: optText(),
    questions: optNum(),
    duration: optNum(),
    points: optNum(),
    skills: optList(TestSkill()),
  }),
);
export type TestSection = z.infer<ReturnType<typeof TestSection>>;

export const TestDetail = once(() =>
  obj({
    testId: optId(),
    testName: optText(),
    accessKey: optText(),
    duration: optNum(),
    questions: optNum(),
    testStatus: testStatus.schema,
    sections: optList(TestSection()),
    totalPoints: optNum(),
    defaultTestLinkId: optId(),
  }),
);
export type TestDetail = z.infer<ReturnType<typeof TestDetail>>;

// 6, 7, 11, 12: test links

const ScheduleDetails = once(() =>
  optObj({
    startDateTime: optText(),
    endDateTime: optText(),
    timeZoneId: optId(),
    invitationValidityInDays: optNum(),
  }),
);
export const TestLink = once(() =>
  obj({
    testLinkId: id(),
    testId: optId(),
    testLinkName: optText(),
    testLink: optText(),
    testLinkStatus: linkStatus.schema,
    invitationType: invitationType.schema,
    isApiLink: optBool(),
    proctoringSettings: optObj({ proctoringMode: proctoringMode.schema }),
    stakeholderEmails: optText(),
    invitationSchedule: optObj({ scheduleType: scheduleType.schema, scheduleDetails: ScheduleDetails() }),
  }),
);
export type TestLink = z.infer<ReturnType<typeof TestLink>>;

export const TestLinks = once(() => z.preprocess(arrayAs('testLinks'), obj({ testLinks: list(TestLink()) })));
export type TestLinks = z.infer<ReturnType<typeof TestLinks>>;

/** What a create or update answers: the link, though it may lack its id (the write succeeded). */
export const WrittenLink = once(() => obj({ ...TestLink().out.shape, testLinkId: optId() }));
export type WrittenLink = z.infer<ReturnType<typeof WrittenLink>>;

// 3, 8, 9, 10: invitations (writes: nothing is required, see read.ts)

export const Invitation = once(() => obj({ testInvitationId: optId(), testUrl: optText(), status: invitationStatus.schema }));
export type Invitation = z.infer<ReturnType<typeof Invitation>>;

export const Reattempt = once(() =>
  obj({
    testInvitationId: optId(),
    testUrl: optText(),
    callbackUrlRegistered: optText(),
    redirectUrlRegistered: optText(),
  }),
);
export type Reattempt = z.infer<ReturnType<typeof Reattempt>>;

export const Cancelled = once(() => obj({ testInvitationId: optId(), status: invitationStatus.schema }));
export type Cancelled = z.infer<ReturnType<typeof Cancelled>>;

// 4: report

const ReportSkill = once(() =>
  obj({
    candidateQbScore: optNum(),
    qbScore: optNum(),
    noOfQue: optNum(),
    qbId: optId(),
    qbName: optText(),
    sectionId: optId(),
    sectionName: optText(),
  }),
);
export type ReportSkill = z.infer<ReturnType<typeof ReportSkill>>;

const ReportSection = once(() =>
  obj({
    candidateScore: optNum(),
    sectionScore: optNum(),
    noOfQue: optNum(),
    sectionId: optId(),
    sectionName: optText(),
    sectionTime: optNum(),
    sectionTimeTaken: optNum(),
    Skills: optList(ReportSkill()),
  }),
);
export type ReportSection = z.infer<ReturnType<typeof ReportSection>>;

export const Report = once(() =>
  obj({
    testInvitationId: optId(),
    /** A String in the spec; read as text whatever it arrives as. */
    testId: optText(),
    candidateEmail: optText(),
    candidateName: optText(),
    attemptedOn: optText(),
    status: invitationStatus.schema,
    score: optNum(),
    scorePercentage: optNum(),
    candidatePoints: optNum(),
    totalTestPoints: optNum(),
    testName: optText(),
    pdfReportUrl: optText(),
    PerformanceCategory: optText(),
    reportType: optNum(),
    sections: optList(ReportSection()),
    Skills: optList(ReportSkill()),
  }),
);
export type Report = z.infer<ReturnType<typeof Report>>;

// 15, 16: attempts and callbacks (their `{result, errors}` envelope is taken off before)

export const TestAttempt = once(() =>
  obj({
    testInvitationId: id(),
    testId: optId(),
    name: optText(),
    email: optText(),
    invitationtype: attemptInvitationType.schema,
    testStatus: invitationStatus.schema,
  }),
);
export type TestAttempt = z.infer<ReturnType<typeof TestAttempt>>;

export const TestAttempts = once(() => z.preprocess(arrayAs('testAttempts'), obj({ testAttempts: list(TestAttempt()) })));
export type TestAttempts = z.infer<ReturnType<typeof TestAttempts>>;

export const ProcessedCallbacks = once(() =>
  obj({
    testinvitationIds: optObj({ successful: optList(id()), failed: optList(id()) }),
  }),
);
export type ProcessedCallbacks = z.infer<ReturnType<typeof ProcessedCallbacks>>;

// 13, 14: settings (field names from the spec's table; values read as numbers where they are)

const flags = (...names: string[]) => Object.fromEntries(names.map((n) => [n, optNum()]));
export const Settings = once(() =>
  obj({
    testSettings: optObj({ testName: optText(), testAliasName: optText(), ...flags('typeOfTest', 'practiceTest') }),
    questionSettings: optObj(flags('randomQuestions', 'randomAnswers', 'showQuestionScore')),
    displayMessageSettings: optObj(flags('sectionEndPopup', 'sectionTimeLeftAlert', 'candidateFeedback')),
    emailSettings: optObj(flags('sendTestReportEmailToCandidate')),
    imageProctoringSettings: optObj(flags('terminateTestOnImageViolation', 'terminateTestAfterViolationCount')),
    windowViolationSettings: optObj({
      ...flags('copyPaste'),
      displayViolationSettings: optObj(flags('displayViolationPopUp', 'terminateTestOnWindowViolation', 'terminateTestAfterViolationCount')),
    }),
  }),
);
export type Settings = z.infer<ReturnType<typeof Settings>>;

// Time zones (the vendor's list operation; its body is not public, so any list of objects with
// an id and a name is read: {timeZones|timezones|result|data: […]} or a bare array)

export const TimeZone = once(() => obj({ timeZoneId: id(), name: optText(), displayName: optText(), utcOffset: optText() }));
export type TimeZone = z.infer<ReturnType<typeof TimeZone>>;

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

export const TimeZones = once(() =>
  z.preprocess(
    (v) => {
      // a bare list, or the first list inside whatever object holds it
      if (Array.isArray(v)) return { timeZones: v };
      if (v && typeof v === 'object' && !('timeZones' in v)) {
        const found = Object.values(v).find(Array.isArray);
        if (found) return { timeZones: found };
      }
      return v;
    },
    obj({ timeZones: list(z.preprocess(zoneFields, TimeZone())) }),
  ),
);
export type TimeZones = z.infer<ReturnType<typeof TimeZones>>;
