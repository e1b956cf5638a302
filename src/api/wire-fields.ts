// The top-level field names of each wire object the CLI prints, in the spec's order: what
// `--json a,b` may name and what `--help` lists. Plain lists, so that loading a command builds no
// zod schema. Keyed by the tolerant reader's name (src/api/read/v3.ts, v2.ts);
// test/unit/wire-fields.test.ts proves each list equals the keys of the strict schema
// (src/api/schemas: the sandbox, OpenAPI) and of the reader, and that the two schemas have the
// same fields at every level, so none of them can drift from the others.

const TEST = ['testId', 'testName', 'accessKey', 'duration', 'questions', 'testStatus'] as const;

export const WIRE_FIELDS = {
  // v3
  TestSummary: TEST,
  TestDetail: [...TEST, 'sections', 'totalPoints', 'defaultTestLinkId'],
  TestLink: [
    'testLinkId',
    'testId',
    'testLinkName',
    'testLink',
    'testLinkStatus',
    'invitationType',
    'isApiLink',
    'proctoringSettings',
    'stakeholderEmails',
    'invitationSchedule',
  ],
  Invitation: ['testInvitationId', 'testUrl', 'status'],
  Reattempt: ['testInvitationId', 'testUrl', 'callbackUrlRegistered', 'redirectUrlRegistered'],
  Cancelled: ['testInvitationId', 'status'],
  Report: [
    'testInvitationId',
    'testId',
    'candidateEmail',
    'candidateName',
    'attemptedOn',
    'status',
    'score',
    'scorePercentage',
    'candidatePoints',
    'totalTestPoints',
    'testName',
    'pdfReportUrl',
    'PerformanceCategory',
    'reportType',
    'sections',
    'Skills',
  ],
  TestAttempt: ['testInvitationId', 'testId', 'name', 'email', 'invitationtype', 'testStatus'],
  Settings: [
    'testSettings',
    'questionSettings',
    'displayMessageSettings',
    'emailSettings',
    'imageProctoringSettings',
    'windowViolationSettings',
  ],
  TimeZone: ['timeZoneId', 'name', 'displayName', 'utcOffset'],
  // v2
  V2Test: TEST,
  V2TestDetail: [...TEST, 'sections'],
  V2Registered: ['testInvitationId', 'takeTestURL'],
  V2LinkRegistered: ['testInvitationId', 'testUrl', 'testAccessTime'],
  V2Report: [
    'emailId',
    'fullName',
    'timeTaken',
    'testName',
    'duration',
    'questions',
    'attemptedOn',
    'totalScore',
    'score',
    'wv',
    'tv',
    'testStatus',
    'reportStatus',
  ],
  V2SectionScore: ['sectionName', 'sectionScore', 'candidateScore'],
  V2TestLink: [
    'testLinkId',
    'testId',
    'testLinkName',
    'testLinkAccessKey',
    'accessTime',
    'startDateTime',
    'endDateTime',
    'timeZoneId',
    'inviteCandidateOnly',
    'imageProctoring',
    'emailToStakeholder',
    'testLinkStatus',
  ],
} as const satisfies Record<string, readonly string[]>;
