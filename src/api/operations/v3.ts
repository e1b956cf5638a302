// The v3 operations: the spec's 16 and the vendor's time-zone list, one row each (types.ts says
// what a row holds). The client, the sandbox's routes, the OpenAPI document and the `--json`
// field lists are all derived from these rows.
import type { OperationRow } from './types.js';

const INVITED = { all: ['testInvitationId', 'testUrl'] } as const;
const SETTINGS = [
  'testSettings',
  'questionSettings',
  'displayMessageSettings',
  'emailSettings',
  'imageProctoringSettings',
  'windowViolationSettings',
] as const;

export const V3_OPERATIONS = {
  'v3.listTests': {
    method: 'GET',
    path: '/v3/tests',
    summary: 'List tests (1)',
    query: 'ListTestsQuery',
    answer: {
      status: 200,
      wire: 'TestsListResponse',
      read: 'TestsList',
      rows: { key: 'tests', read: 'TestSummary' },
      identify: { list: 'tests' },
    },
    repeat: 'read',
    errors: [400, 401],
    style: 'resultErrors',
  },
  'v3.listTimeZones': {
    method: 'GET',
    path: '/v3/timezones',
    summary: 'List time zones (vendor operation; path and body not public, see docs/assumptions.md)',
    answer: {
      status: 200,
      wire: 'TimeZonesResponse',
      read: 'TimeZones',
      rows: { key: 'timeZones', read: 'TimeZone' },
      identify: { list: 'timeZones', orAnyList: true }, // `{timeZones: null}`: none
    },
    repeat: 'read',
    errors: [401],
    style: 'statusMessage',
  },
  'v3.getTest': {
    method: 'GET',
    path: '/v3/tests/{testId}',
    summary: 'Retrieve a test (2)',
    answer: {
      status: 200,
      wire: 'TestDetail',
      read: 'TestDetail',
      identify: { any: ['testId', 'testName', 'sections'] },
    },
    repeat: 'read',
    errors: [400, 401, 403],
    style: 'statusMessage',
  },
  'v3.invite': {
    method: 'POST',
    path: '/v3/tests/{testId}/invite',
    summary: 'Invite a candidate via the default test link (3)',
    body: 'InviteRequest',
    answer: {
      status: 200,
      wire: 'InviteResponse',
      read: 'Invitation',
      identify: INVITED,
      empty: {
        means: 'the candidate may have been invited, but the answer has no invitation id or URL',
        check:
          'the same invite again returns that invitation if it was made (one per candidate and test); ' +
          'sent with an e-mail, the repeat may e-mail the candidate again',
      },
    },
    // one invitation per candidate and test in the spec
    repeat: 'idempotent',
    mayEmail: true,
    errors: [400, 403],
    style: 'errors',
    authStatus: 400,
    notes: 'email and name are required unless disableMandatoryFields is 1; endDateTime must be after startDateTime.',
  },
  'v3.getReport': {
    method: 'GET',
    path: '/v3/reports/{testInvitationId}',
    summary: 'Candidate report as JSON (4)',
    query: 'ReportQuery',
    answer: {
      status: 200,
      wire: 'Report',
      read: 'Report',
      // a report names its invitation, or at least says its status or its candidate
      identify: { any: ['testInvitationId', 'status', 'candidateEmail', 'candidateName', 'score'] },
    },
    repeat: 'read',
    errors: [400, 401],
    style: 'errors',
    authStatus: 400,
  },
  'v3.getReportPdf': {
    method: 'GET',
    path: '/v3/reports/{testInvitationId}/pdf',
    summary: 'Candidate report as PDF (5)',
    answer: { status: 200, wire: 'pdf' },
    repeat: 'read',
    errors: [400, 401],
    style: 'errors',
    authStatus: 400,
  },
  'v3.listLinks': {
    method: 'GET',
    path: '/v3/tests/{testId}/testlinks',
    summary: 'List test links (6)',
    answer: {
      status: 200,
      wire: 'TestLinksResponse',
      read: 'TestLinks',
      rows: { key: 'testLinks', read: 'TestLink' },
      identify: { list: 'testLinks' },
    },
    repeat: 'read',
    errors: [400, 401, 403],
    style: 'statusMessage',
  },
  'v3.getLink': {
    method: 'GET',
    path: '/v3/tests/{testId}/testlinks/{testLinkId}',
    summary: 'Retrieve a test link (7)',
    answer: { status: 200, wire: 'TestLink', read: 'TestLink', identify: { all: ['testLinkId'] } },
    repeat: 'read',
    errors: [400, 401, 403, 404],
    style: 'statusMessage',
  },
  'v3.cancel': {
    method: 'POST',
    path: '/v3/invitations/{testInvitationId}/cancel',
    summary: 'Cancel an invitation (8)',
    body: 'CancelRequest',
    bodyOptional: true,
    answer: {
      status: 200,
      wire: 'CancelResponse',
      read: 'Cancelled',
      // a 2xx JSON answer (or none: 204) to a cancel means it is cancelled, whatever the body says
      known: { path: ['testInvitationId'], fields: { status: 'Cancelled' } },
      empty: true,
    },
    // a repeat after a lost answer is refused ("can not be cancelled"): the client reads the report back
    repeat: 'idempotent',
    errors: [400, 401],
    style: 'statusMessage',
  },
  'v3.reattempt': {
    method: 'POST',
    path: '/v3/invitations/{testInvitationId}/reattempt',
    summary: 'Allow a reattempt (9)',
    body: 'ReattemptRequest',
    answer: {
      status: 200,
      wire: 'ReattemptResponse',
      read: 'Reattempt',
      identify: INVITED,
      empty: {
        means: 'the reattempt may have been made, but the answer has no invitation id or URL',
        check: 'the same reattempt again returns the one made, never a second',
      },
    },
    // "returns that latest active reattempt invitation again": a lost answer (a 500 too) is repeated
    repeat: 'same-on-repeat',
    mayEmail: true,
    errors: [400, 401],
    style: 'statusMessage',
    notes: 'EndDateTime must be after StartDateTime; 400 while the invitation is In Progress.',
  },
  'v3.inviteByLink': {
    method: 'POST',
    path: '/v3/tests/{testId}/testlinks/{testLinkId}/invite',
    summary: 'Invite a candidate via a chosen test link (10)',
    body: 'InviteByLinkRequest',
    answer: {
      status: 201,
      wire: 'InviteByLinkResponse',
      read: 'Invitation',
      identify: INVITED,
      empty: {
        means: 'the candidate may have been invited, but the answer has no invitation id or URL',
        check:
          'the same invite again returns that invitation if it was made (one per candidate and test); ' +
          'sent with an e-mail, the repeat may e-mail the candidate again',
      },
    },
    repeat: 'idempotent',
    mayEmail: true,
    errors: [400, 403, 404],
    style: 'errors',
    authStatus: 400,
    notes: 'email and name are required unless disableMandatoryFields is 1.',
  },
  'v3.createLink': {
    method: 'POST',
    path: '/v3/tests/{testId}/testlinks',
    summary: 'Create a test link (11)',
    body: 'TestLinkInput',
    answer: {
      status: 200,
      wire: 'TestLink',
      read: 'WrittenLink',
      known: { path: ['testId'] },
      // without its id the new link cannot be named
      identify: { all: ['testLinkId'] },
      empty: {
        means: 'the link may have been created, but the answer does not name it',
        check: 'check with `assess links list {testId}` before creating it again',
      },
    },
    repeat: 'once', // a repeat would create a second link
    errors: [400, 403],
    style: 'errors',
    authStatus: 400,
    notes:
      'scheduleDetails.endDateTime must be after startDateTime; testId in the body, when given, must match the path.',
  },
  'v3.updateLink': {
    method: 'POST',
    path: '/v3/tests/{testId}/testlinks/{testLinkId}',
    summary: 'Update a test link (12)',
    body: 'TestLinkUpdateInput',
    bodyOptional: true,
    answer: {
      status: 200,
      wire: 'TestLink',
      read: 'WrittenLink',
      known: { path: ['testId', 'testLinkId'] },
      identify: 'object',
      empty: true,
    },
    repeat: 'once',
    errors: [400, 403, 404],
    style: 'errors',
    authStatus: 400,
    notes: 'Fields given replace the stored ones; the merged link must satisfy TestLinkInput.',
  },
  'v3.getSettings': {
    method: 'GET',
    path: '/v3/tests/{testId}/settings',
    summary: 'Retrieve test settings (13)',
    answer: { status: 200, wire: 'TestSettingsResponse', read: 'Settings', identify: { any: SETTINGS } },
    repeat: 'read',
    errors: [400, 401, 403],
    style: 'statusMessage',
  },
  'v3.updateSettings': {
    method: 'POST',
    path: '/v3/tests/{testId}/settings',
    summary: 'Replace test settings (14)',
    body: 'TestSettings',
    answer: {
      status: 201,
      wire: 'TestSettingsResponse',
      read: 'Settings',
      // the settings object, or (204, `{}`) nothing: what was sent is then what is stored
      identify: 'object',
      empty: true,
      known: { body: true },
    },
    repeat: 'once',
    errors: [400, 403],
    style: 'errors',
    authStatus: 400,
    notes: 'Full replace: read the settings first, send the whole object. copyPaste 1 turns displayViolationPopUp off.',
  },
  'v3.listAttempts': {
    method: 'POST',
    path: '/v3/candidates/testattempts',
    summary: 'List invitations by state (15)',
    query: 'ListAttemptsQuery',
    body: 'ListAttemptsRequest',
    answer: {
      status: 200,
      wire: 'ListAttemptsResponse',
      read: 'TestAttempts',
      rows: { key: 'testAttempts', read: 'TestAttempt' },
      identify: { list: 'testAttempts' },
    },
    repeat: 'read', // a query sent as a POST
    errors: [400, 401],
    style: 'resultErrors',
    notes: 'A bad state is 400; a missing or malformed date-time is 401, as the spec documents.',
  },
  'v3.processCallbacks': {
    method: 'POST',
    path: '/v3/callbacks/process',
    summary: 'Reprocess completion notifications (16)',
    body: 'ProcessCallbacksRequest',
    answer: {
      status: 200,
      wire: 'ProcessCallbacksResponse',
      read: 'ProcessedCallbacks',
      // "a 200 response means the invitations are queued": an answer that does not list the ids
      // leaves them unknown to the caller (not failed)
      expect: ['testinvitationIds'],
      empty: true,
    },
    repeat: 'idempotent', // re-queuing twice is harmless
    errors: [400, 401],
    style: 'resultErrors',
    notes: 'At most 100 ids per call; an id of another account (or unknown) is 401 with the ids in errors.',
  },
} as const satisfies Record<string, OperationRow>;
