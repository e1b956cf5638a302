// `--json a,b` naming a field the command cannot print: refused up front (exit 2, the valid fields
// listed) like any other bad flag, so nothing is sent — also by commands that write (create,
// invite, cancel, settings set), and under --api v2, whose field names differ.
import { esc, INVITE_OK, type BadInput } from './types.js';

/** The two-line message: the unknown field, then every valid one in the command's order. */
const unknown = (field: string, valid: string[]) => new RegExp(`^error: --json: unknown field '${esc(field)}'\\n  valid fields: ${esc(valid.join(', '))}\\n$`);

const TEST = ['testId', 'testName', 'accessKey', 'duration', 'questions', 'testStatus'];
const TEST_DETAIL = [...TEST, 'sections', 'totalPoints', 'defaultTestLinkId'];
const LINK = [
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
];
const V2_LINK = [
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
];
const ATTEMPT = ['testInvitationId', 'testId', 'name', 'email', 'invitationtype', 'testStatus'];
const REPORT = [
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
];
const SETTINGS = ['testSettings', 'questionSettings', 'displayMessageSettings', 'emailSettings', 'imageProctoringSettings', 'windowViolationSettings'];
const INVITATION = ['testInvitationId', 'testUrl', 'status'];
const WINDOW = ['--state', 'completed', '--from', '7d', '--to', 'now'];

export const jsonFieldCases: BadInput[] = [
  { name: 'tests list --json unknown', args: ['tests', 'list', '--json', 'nosuchfield'], expect: unknown('nosuchfield', TEST) },
  { name: 'tests list --all --json unknown', args: ['tests', 'list', '--all', '--json', 'testId,nosuchfield'], expect: unknown('nosuchfield', TEST) },
  { name: 'tests get --json unknown', args: ['tests', 'get', '1001', '--json', 'nosuchfield'], expect: unknown('nosuchfield', TEST_DETAIL) },
  {
    name: 'tests get --json two unknown',
    args: ['tests', 'get', '1001', '--json', 'testId,foo,bar'],
    expect: new RegExp(`--json: unknown fields 'foo', 'bar'\\n  valid fields: ${esc(TEST_DETAIL.join(', '))}`),
  },
  { name: 'attempts list --json unknown', args: ['attempts', 'list', ...WINDOW, '--json', 'candidateEmail'], expect: unknown('candidateEmail', ATTEMPT) },
  { name: 'report --json unknown', args: ['report', '900001', '--json', 'nosuchfield'], expect: unknown('nosuchfield', REPORT) },
  { name: 'report --type both --json unknown', args: ['report', '900001', '--type', 'both', '--json', 'skills'], expect: unknown('skills', REPORT) },
  {
    name: 'report --pdf --json a report field',
    args: ['report', '900001', '--pdf', '--json', 'candidateName'],
    expect: unknown('candidateName', ['testInvitationId', 'file', 'bytes']),
  },
  { name: 'links list --json unknown', args: ['links', 'list', '1001', '--json', 'nosuchfield'], expect: unknown('nosuchfield', LINK) },
  {
    name: 'links list --json a dotted column key',
    args: ['links', 'list', '1001', '--json', 'proctoringSettings.proctoringMode'],
    expect: unknown('proctoringSettings.proctoringMode', LINK),
  },
  { name: 'links get --json unknown', args: ['links', 'get', '1001', '5003', '--json', 'nosuchfield'], expect: unknown('nosuchfield', LINK) },
  {
    name: 'links create --json unknown (nothing created)',
    args: ['links', 'create', '1001', '--name', 'Campus', '--valid-days', '7', '--tz', '1', '--json', 'linkId'],
    expect: unknown('linkId', LINK),
  },
  {
    name: 'links update --json unknown',
    args: ['links', 'update', '1001', '5003', '--status', 'inactive', '--json', 'nosuchfield'],
    expect: unknown('nosuchfield', LINK),
  },
  {
    name: 'links migrate --json unknown',
    args: ['links', 'migrate', '1001', '--json', 'nosuchfield'],
    expect: unknown('nosuchfield', ['v2TestLinkId', 'testLinkName', 'accessTime', 'scheduleType', 'action', 'v3TestLinkId', 'note', 'v3Link']),
  },
  {
    name: 'invite --json unknown (nobody invited)',
    args: ['invite', '1001', ...INVITE_OK, '--json', 'testInvitationId,url'],
    expect: unknown('url', INVITATION),
  },
  {
    name: 'invite --link --json unknown',
    args: ['invite', '1001', '--link', '5003', ...INVITE_OK, '--json', 'nosuchfield'],
    expect: unknown('nosuchfield', INVITATION),
  },
  {
    name: 'attempts cancel --yes --json unknown',
    args: ['attempts', 'cancel', '900004', '--yes', '--json', 'nosuchfield'],
    expect: unknown('nosuchfield', ['testInvitationId', 'status']),
  },
  {
    name: 'reattempt --json unknown',
    args: ['reattempt', '900001', '--start', 'now', '--end', '7d', '--tz', '35', '--json', 'nosuchfield'],
    expect: unknown('nosuchfield', ['testInvitationId', 'testUrl', 'callbackUrlRegistered', 'redirectUrlRegistered']),
  },
  {
    name: 'callbacks process --json unknown',
    args: ['callbacks', 'process', '900001', '--json', 'result'],
    expect: unknown('result', ['testInvitationId', 'status', 'message']),
  },
  { name: 'settings get --json unknown', args: ['settings', 'get', '1001', '--json', 'copyPaste'], expect: unknown('copyPaste', SETTINGS) },
  {
    name: 'settings set --yes --json unknown (nothing replaced)',
    args: ['settings', 'set', '1001', '--set', 'questionSettings.randomQuestions=1', '--yes', '--json', 'nosuchfield'],
    expect: unknown('nosuchfield', SETTINGS),
  },
  {
    name: 'settings set --dry-run --json a settings section',
    args: ['settings', 'set', '1001', '--set', 'questionSettings.randomQuestions=1', '--dry-run', '--json', 'questionSettings'],
    expect: unknown('questionSettings', ['key', 'old', 'new']),
  },
  {
    name: 'auth status --json unknown',
    args: ['auth', 'status', '--json', 'apiKey'],
    expect: unknown('apiKey', ['profile', 'baseUrl', 'keySource', 'key', 'valid']),
  },
  // v2 spells its fields its own way: a v3-only name is unknown there.
  {
    name: '--api v2 tests get --json a v3-only field',
    args: ['--api', 'v2', 'tests', 'get', '1001', '--json', 'totalPoints'],
    expect: unknown('totalPoints', [...TEST, 'sections']),
  },
  {
    name: '--api v2 links list --json a v3 field',
    args: ['--api', 'v2', 'links', 'list', '1001', '--json', 'invitationSchedule'],
    expect: unknown('invitationSchedule', V2_LINK),
  },
  {
    name: '--api v2 invite --json testUrl (v2: takeTestURL)',
    args: ['--api', 'v2', 'invite', '1001', ...INVITE_OK, '--json', 'testUrl'],
    expect: unknown('testUrl', ['testInvitationId', 'takeTestURL']),
  },
  {
    name: '--api v2 report --json a v3 field',
    args: ['--api', 'v2', 'report', '900001', '--json', 'candidateName'],
    expect: /^error: --json: unknown field 'candidateName'\n {2}valid fields: emailId, fullName, .*testInvitationId\n$/,
  },
  {
    name: '--api v2 report --sections --json unknown',
    args: ['--api', 'v2', 'report', '900001', '--sections', '--json', 'nosuchfield'],
    expect: unknown('nosuchfield', ['sectionName', 'sectionScore', 'candidateScore']),
  },
  {
    name: 'callbacks listen --json unknown (refused before it starts listening)',
    args: ['callbacks', 'listen', '--port', '0', '--json', 'Status,status'],
    expect: unknown('status', [
      'CandidateEmailId',
      'AttemptedOn',
      'AttemptedOnUtc',
      'TotalScore',
      'CandidateScore',
      'ReportPDFUrl',
      'TestInvitationId',
      'Status',
      'PerformanceCategory',
    ]),
  },
];
