// `--json a,b` naming a field the command cannot print: refused up front (exit 2, the valid fields
// listed, each shown as a column with its table heading) like any other bad flag, so nothing is
// sent — also by commands that write (create, invite, cancel, settings set), and under --api v2,
// whose field names differ.
import { esc, INVITE_OK, type BadInput } from './types.js';

/**
 * The two-line message: the unknown field (and the field it most likely means), then every valid
 * one in the command's order, `field (Heading)` where the field is a column of the table.
 */
const unknown = (field: string, valid: string[], near?: string) => {
  const hint = valid.some((v) => v.includes(' (')) ? 'valid fields (table heading)' : 'valid fields';
  const meant = near ? ` (did you mean '${near}'?)` : '';
  return new RegExp(
    `^error: --json: unknown field '${esc(field)}'${esc(meant)}\\n  ${esc(hint)}: ${esc(valid.join(', '))}\\n$`,
  );
};

const TEST = [
  'testId (Test ID)',
  'testName (Name)',
  'accessKey',
  'duration (Minutes)',
  'questions (Questions)',
  'testStatus (Status)',
];
const TEST_HEADER = [
  'testId (Test ID)',
  'testName (Name)',
  'accessKey (Access key)',
  'duration (Minutes)',
  'questions (Questions)',
  'testStatus (Status)',
];
const TEST_DETAIL = [...TEST_HEADER, 'sections', 'totalPoints (Points)', 'defaultTestLinkId (Default link)'];
const LINK = [
  'testLinkId (Link ID)',
  'testId (Test ID)',
  'testLinkName (Name)',
  'testLink (Link token)',
  'testLinkStatus (Status)',
  'invitationType (Type)',
  'isApiLink (API link)',
  'proctoringSettings (Proctoring)',
  'stakeholderEmails (Stakeholders)',
  'invitationSchedule (Schedule, Valid days, Start, End, Time zone)',
];
const V2_LINK = [
  'testLinkId (Link ID)',
  'testId (Test ID)',
  'testLinkName (Name)',
  'testLinkAccessKey (Access key)',
  'accessTime (Access (0/1/2))',
  'startDateTime (Start)',
  'endDateTime (End)',
  'timeZoneId (Time zone id)',
  'inviteCandidateOnly (Invited only)',
  'imageProctoring (Image proctoring)',
  'emailToStakeholder (Stakeholders)',
  'testLinkStatus (Status (1/3))',
];
const ATTEMPT = [
  'testInvitationId (Invitation)',
  'testId (Test)',
  'name (Name)',
  'email (E-mail)',
  'invitationtype (Type)',
  'testStatus (Status)',
];
const REPORT = [
  'testInvitationId (Invitation)',
  'testId',
  'candidateEmail (E-mail)',
  'candidateName (Candidate)',
  'attemptedOn (Attempted)',
  'status (Status)',
  'score',
  'scorePercentage (Percentage)',
  'candidatePoints (Points)',
  'totalTestPoints (Out of)',
  'testName (Test)',
  'pdfReportUrl',
  'PerformanceCategory (Performance)',
  'reportType',
  'sections',
  'Skills',
];
const SETTINGS = [
  'testSettings',
  'questionSettings',
  'displayMessageSettings',
  'emailSettings',
  'imageProctoringSettings',
  'windowViolationSettings',
];
const INVITATION = ['testInvitationId (Invitation)', 'testUrl (URL)', 'status (Status)', 'emailed'];
const WINDOW = ['--state', 'completed', '--from', '7d', '--to', 'now'];

export const jsonFieldCases: BadInput[] = [
  {
    name: 'tests list --json unknown',
    args: ['tests', 'list', '--json', 'nosuchfield'],
    expect: unknown('nosuchfield', TEST),
  },
  // a table heading names its field (the Status column is testStatus)
  {
    name: 'tests list --json a table heading',
    args: ['tests', 'list', '--json', 'Status'],
    expect: unknown('Status', TEST, 'testStatus'),
  },
  {
    name: 'tests list --all --json unknown',
    args: ['tests', 'list', '--all', '--json', 'testId,nosuchfield'],
    expect: unknown('nosuchfield', TEST),
  },
  {
    name: 'tests get --json unknown',
    args: ['tests', 'get', '1001', '--json', 'nosuchfield'],
    expect: unknown('nosuchfield', TEST_DETAIL),
  },
  {
    name: 'tests get --json two unknown',
    args: ['tests', 'get', '1001', '--json', 'testId,foo,bar'],
    expect: new RegExp(
      `--json: unknown fields 'foo', 'bar'\\n  valid fields \\(table heading\\): ${esc(TEST_DETAIL.join(', '))}`,
    ),
  },
  {
    name: 'attempts list --json unknown',
    args: ['attempts', 'list', ...WINDOW, '--json', 'candidateEmail'],
    expect: unknown('candidateEmail', ATTEMPT, 'email'),
  },
  {
    name: 'report --json unknown',
    args: ['report', '900001', '--json', 'nosuchfield'],
    expect: unknown('nosuchfield', REPORT),
  },
  {
    name: 'report --type both --json unknown',
    args: ['report', '900001', '--type', 'both', '--json', 'skills'],
    expect: unknown('skills', REPORT, 'Skills'),
  },
  {
    name: 'report --pdf --json a report field',
    args: ['report', '900001', '--pdf', '--json', 'candidateName'],
    expect: unknown('candidateName', ['testInvitationId', 'file', 'bytes']),
  },
  {
    name: 'links list --json unknown',
    args: ['links', 'list', '1001', '--json', 'nosuchfield'],
    expect: unknown('nosuchfield', LINK),
  },
  {
    name: 'links list --json a dotted column key',
    args: ['links', 'list', '1001', '--json', 'proctoringSettings.proctoringMode'],
    expect: unknown('proctoringSettings.proctoringMode', LINK, 'proctoringSettings'),
  },
  {
    name: 'links get --json unknown',
    args: ['links', 'get', '1001', '5003', '--json', 'nosuchfield'],
    expect: unknown('nosuchfield', LINK),
  },
  {
    name: 'links create --json unknown (nothing created)',
    args: ['links', 'create', '1001', '--name', 'Campus', '--valid-days', '7', '--tz', '1', '--json', 'linkId'],
    expect: unknown('linkId', LINK, 'testLinkId'),
  },
  {
    name: 'links update --json unknown',
    args: ['links', 'update', '1001', '5003', '--status', 'inactive', '--json', 'nosuchfield'],
    expect: unknown('nosuchfield', LINK),
  },
  {
    name: 'links migrate --json unknown',
    args: ['links', 'migrate', '1001', '--json', 'nosuchfield'],
    expect: unknown('nosuchfield', [
      'v2TestLinkId (v2 link)',
      'testLinkName (Name)',
      'accessTime (accessTime)',
      'scheduleType (v3 schedule)',
      'action (Action)',
      'v3TestLinkId (v3 link)',
      'note (Note)',
      'v3Link (Status, Type, Proctoring)',
    ]),
  },
  {
    name: 'invite --json unknown (nobody invited)',
    args: ['invite', '1001', ...INVITE_OK, '--json', 'testInvitationId,url'],
    expect: unknown('url', INVITATION, 'testUrl'),
  },
  {
    name: 'invite --link --json unknown',
    args: ['invite', '1001', '--link', '5003', ...INVITE_OK, '--json', 'nosuchfield'],
    expect: unknown('nosuchfield', INVITATION),
  },
  {
    name: 'attempts cancel --yes --json unknown',
    args: ['attempts', 'cancel', '900004', '--yes', '--json', 'nosuchfield'],
    expect: unknown('nosuchfield', ['testInvitationId (Invitation)', 'status (Status)']),
  },
  {
    name: 'reattempt --json unknown',
    args: ['reattempt', '900001', '--start', 'now', '--end', '7d', '--tz', '35', '--json', 'nosuchfield'],
    expect: unknown('nosuchfield', [
      'testInvitationId (Invitation)',
      'testUrl (URL)',
      'callbackUrlRegistered (Callback URL)',
      'redirectUrlRegistered (Redirect URL)',
      'emailed',
    ]),
  },
  {
    name: 'callbacks process --json unknown',
    args: ['callbacks', 'process', '900001', '--json', 'result'],
    // the Result column is the status field
    expect: unknown('result', ['testInvitationId (Invitation)', 'status (Result)', 'message (Message)'], 'status'),
  },
  {
    name: 'settings get --json unknown',
    args: ['settings', 'get', '1001', '--json', 'copyPaste'],
    expect: unknown('copyPaste', SETTINGS),
  },
  {
    name: 'settings set --yes --json unknown (nothing replaced)',
    args: ['settings', 'set', '1001', '--set', 'questionSettings.randomQuestions=1', '--yes', '--json', 'nosuchfield'],
    expect: unknown('nosuchfield', SETTINGS),
  },
  {
    name: 'settings set --dry-run --json a settings section',
    args: [
      'settings',
      'set',
      '1001',
      '--set',
      'questionSettings.randomQuestions=1',
      '--dry-run',
      '--json',
      'questionSettings',
    ],
    expect: unknown('questionSettings', ['key', 'old', 'new']),
  },
  {
    name: 'auth status --json unknown',
    args: ['auth', 'status', '--json', 'apiKey'],
    expect: unknown(
      'apiKey',
      ['profile (Profile)', 'baseUrl (Base URL)', 'keySource (Key from)', 'key (Key)', 'valid (Accepted)'],
      'key',
    ),
  },
  // v2 spells its fields its own way: a v3-only name is unknown there.
  {
    name: '--api v2 tests get --json a v3-only field',
    args: ['--api', 'v2', 'tests', 'get', '1001', '--json', 'totalPoints'],
    expect: unknown('totalPoints', [...TEST_HEADER, 'sections']),
  },
  {
    name: '--api v2 links list --json a v3 field',
    args: ['--api', 'v2', 'links', 'list', '1001', '--json', 'invitationSchedule'],
    expect: unknown('invitationSchedule', V2_LINK),
  },
  {
    name: '--api v2 invite --json testUrl (v2: takeTestURL)',
    args: ['--api', 'v2', 'invite', '1001', ...INVITE_OK, '--json', 'testUrl'],
    expect: unknown('testUrl', ['testInvitationId (Invitation)', 'takeTestURL (URL)', 'emailed'], 'takeTestURL'),
  },
  {
    name: '--api v2 report --json a v3 field',
    args: ['--api', 'v2', 'report', '900001', '--json', 'candidateName'],
    expect:
      /^error: --json: unknown field 'candidateName'\n {2}valid fields \(table heading\): emailId \(E-mail\), fullName \(Candidate\), .*testInvitationId \(Invitation\)\n$/,
  },
  {
    name: '--api v2 report --sections --json unknown',
    args: ['--api', 'v2', 'report', '900001', '--sections', '--json', 'nosuchfield'],
    expect: unknown('nosuchfield', ['sectionName (Section)', 'sectionScore (Out of)', 'candidateScore (Score)']),
  },
  {
    name: 'callbacks listen --json unknown (refused before it starts listening)',
    args: ['callbacks', 'listen', '--port', '0', '--json', 'Status,status'],
    expect: unknown(
      'status',
      [
        'CandidateEmailId',
        'AttemptedOn',
        'AttemptedOnUtc',
        'TotalScore',
        'CandidateScore',
        'ReportPDFUrl',
        'TestInvitationId',
        'Status',
        'PerformanceCategory',
      ],
      'Status',
    ),
  },
];
