// Every operation the sandbox serves under /v3 and /v2/org, one row each: the table the OpenAPI
// document is built from. test/sandbox/openapi.test.ts compares it with the routes the sandbox
// actually registers (method, path, error style, key-failure status), so a route added, removed
// or restyled without a row here fails the tests. The control API (/_sandbox/) and the /take/
// pages are not part of the service and are left out on purpose.
import type { ErrorStyle } from '../replies.js';
import type { RequestSchemaName, ResponseSchemaName } from './components.js';

export interface Operation {
  method: 'GET' | 'POST';
  /** fastify form, as registered: `/v3/tests/:testId`. */
  path: string;
  /** The client's operation name (src/api/v3.ts, v2.ts). */
  operationId: string;
  summary: string;
  /** Query object schema (its properties become query parameters). */
  query?: RequestSchemaName;
  body?: RequestSchemaName;
  /** The body may be left out (cancel reads none; an update with no fields changes nothing). */
  bodyOptional?: true;
  /** Success status and body; `pdf` is a binary application/pdf answer (no JSON schema). */
  success: { status: 200 | 201; body: ResponseSchemaName | 'pdf' };
  /** Error statuses the route answers (besides injected faults, 413 and 500). */
  errors: number[];
  /** v3 only: the route's `config.style` and `config.authStatus` (default 401). */
  style?: ErrorStyle;
  authStatus?: 400 | 401;
  /** Rules the JSON Schema cannot carry (zod refinements), for the description. */
  notes?: string;
}

const v3 = (op: Omit<Operation, 'style'> & { style: ErrorStyle }): Operation => op;
const v2 = (op: Omit<Operation, 'style' | 'authStatus'>): Operation => op;

export const OPERATIONS: Operation[] = [
  v3({
    method: 'GET',
    path: '/v3/tests',
    operationId: 'v3.listTests',
    summary: 'List tests (1)',
    query: 'ListTestsQuery',
    success: { status: 200, body: 'TestsListResponse' },
    errors: [400, 401],
    style: 'resultErrors',
  }),
  v3({
    method: 'GET',
    path: '/v3/timezones',
    operationId: 'v3.listTimeZones',
    summary: 'List time zones (vendor operation; path and body not public, see docs/assumptions.md)',
    success: { status: 200, body: 'TimeZonesResponse' },
    errors: [401],
    style: 'statusMessage',
  }),
  v3({
    method: 'GET',
    path: '/v3/tests/:testId',
    operationId: 'v3.getTest',
    summary: 'Retrieve a test (2)',
    success: { status: 200, body: 'TestDetail' },
    errors: [400, 401, 403],
    style: 'statusMessage',
  }),
  v3({
    method: 'POST',
    path: '/v3/tests/:testId/invite',
    operationId: 'v3.invite',
    summary: 'Invite a candidate via the default test link (3)',
    body: 'InviteRequest',
    success: { status: 200, body: 'InviteResponse' },
    errors: [400, 403],
    style: 'errors',
    authStatus: 400,
    notes: 'email and name are required unless disableMandatoryFields is 1; endDateTime must be after startDateTime.',
  }),
  v3({
    method: 'GET',
    path: '/v3/reports/:testInvitationId',
    operationId: 'v3.getReport',
    summary: 'Candidate report as JSON (4)',
    query: 'ReportQuery',
    success: { status: 200, body: 'Report' },
    errors: [400, 401],
    style: 'errors',
    authStatus: 400,
  }),
  v3({
    method: 'GET',
    path: '/v3/reports/:testInvitationId/pdf',
    operationId: 'v3.getReportPdf',
    summary: 'Candidate report as PDF (5)',
    success: { status: 200, body: 'pdf' },
    errors: [400, 401],
    style: 'errors',
    authStatus: 400,
  }),
  v3({
    method: 'GET',
    path: '/v3/tests/:testId/testlinks',
    operationId: 'v3.listLinks',
    summary: 'List test links (6)',
    success: { status: 200, body: 'TestLinksResponse' },
    errors: [400, 401, 403],
    style: 'statusMessage',
  }),
  v3({
    method: 'GET',
    path: '/v3/tests/:testId/testlinks/:testLinkId',
    operationId: 'v3.getLink',
    summary: 'Retrieve a test link (7)',
    success: { status: 200, body: 'TestLink' },
    errors: [400, 401, 403, 404],
    style: 'statusMessage',
  }),
  v3({
    method: 'POST',
    path: '/v3/invitations/:testInvitationId/cancel',
    operationId: 'v3.cancel',
    summary: 'Cancel an invitation (8)',
    body: 'CancelRequest',
    bodyOptional: true,
    success: { status: 200, body: 'CancelResponse' },
    errors: [400, 401],
    style: 'statusMessage',
  }),
  v3({
    method: 'POST',
    path: '/v3/invitations/:testInvitationId/reattempt',
    operationId: 'v3.reattempt',
    summary: 'Allow a reattempt (9)',
    body: 'ReattemptRequest',
    success: { status: 200, body: 'ReattemptResponse' },
    errors: [400, 401],
    style: 'statusMessage',
    notes: 'EndDateTime must be after StartDateTime; 400 while the invitation is In Progress.',
  }),
  v3({
    method: 'POST',
    path: '/v3/tests/:testId/testlinks/:testLinkId/invite',
    operationId: 'v3.inviteByLink',
    summary: 'Invite a candidate via a chosen test link (10)',
    body: 'InviteByLinkRequest',
    success: { status: 201, body: 'InviteByLinkResponse' },
    errors: [400, 403, 404],
    style: 'errors',
    authStatus: 400,
    notes: 'email and name are required unless disableMandatoryFields is 1.',
  }),
  v3({
    method: 'POST',
    path: '/v3/tests/:testId/testlinks',
    operationId: 'v3.createLink',
    summary: 'Create a test link (11)',
    body: 'TestLinkInput',
    success: { status: 200, body: 'TestLink' },
    errors: [400, 403],
    style: 'errors',
    authStatus: 400,
    notes:
      'scheduleDetails.endDateTime must be after startDateTime; testId in the body, when given, must match the path.',
  }),
  v3({
    method: 'POST',
    path: '/v3/tests/:testId/testlinks/:testLinkId',
    operationId: 'v3.updateLink',
    summary: 'Update a test link (12)',
    body: 'TestLinkUpdateInput',
    bodyOptional: true,
    success: { status: 200, body: 'TestLink' },
    errors: [400, 403, 404],
    style: 'errors',
    authStatus: 400,
    notes: 'Fields given replace the stored ones; the merged link must satisfy TestLinkInput.',
  }),
  v3({
    method: 'GET',
    path: '/v3/tests/:testId/settings',
    operationId: 'v3.getSettings',
    summary: 'Retrieve test settings (13)',
    success: { status: 200, body: 'TestSettingsResponse' },
    errors: [400, 401, 403],
    style: 'statusMessage',
  }),
  v3({
    method: 'POST',
    path: '/v3/tests/:testId/settings',
    operationId: 'v3.updateSettings',
    summary: 'Replace test settings (14)',
    body: 'TestSettings',
    success: { status: 201, body: 'TestSettingsResponse' },
    errors: [400, 403],
    style: 'errors',
    authStatus: 400,
    notes: 'Full replace: read the settings first, send the whole object. copyPaste 1 turns displayViolationPopUp off.',
  }),
  v3({
    method: 'POST',
    path: '/v3/candidates/testattempts',
    operationId: 'v3.listAttempts',
    summary: 'List invitations by state (15)',
    query: 'ListAttemptsQuery',
    body: 'ListAttemptsRequest',
    success: { status: 200, body: 'ListAttemptsResponse' },
    errors: [400, 401],
    style: 'resultErrors',
    notes: 'A bad state is 400; a missing or malformed date-time is 401, as the spec documents.',
  }),
  v3({
    method: 'POST',
    path: '/v3/callbacks/process',
    operationId: 'v3.processCallbacks',
    summary: 'Reprocess completion notifications (16)',
    body: 'ProcessCallbacksRequest',
    success: { status: 200, body: 'ProcessCallbacksResponse' },
    errors: [400, 401],
    style: 'resultErrors',
    notes: 'At most 100 ids per call; an id of another account (or unknown) is 401 with the ids in errors.',
  }),

  v2({
    method: 'GET',
    path: '/v2/org/tests',
    operationId: 'v2.listTests',
    summary: 'List tests (v2)',
    query: 'V2ListTestsQuery',
    success: { status: 200, body: 'V2TestsResponse' },
    errors: [400, 401],
  }),
  v2({
    method: 'GET',
    path: '/v2/org/tests/:testId',
    operationId: 'v2.getTest',
    summary: 'Retrieve a test (v2)',
    success: { status: 200, body: 'V2TestDetailResponse' },
    errors: [400, 401, 403],
  }),
  v2({
    method: 'POST',
    path: '/v2/org/tests/:testId/register',
    operationId: 'v2.register',
    summary: 'Register a candidate via the default link (v2)',
    body: 'V2RegisterRequest',
    success: { status: 200, body: 'V2RegisterResponse' },
    errors: [400, 401, 403],
  }),
  v2({
    method: 'POST',
    path: '/v2/org/tests/:testId/testlinks/:testLinkId/register',
    operationId: 'v2.registerByLink',
    summary: 'Register a candidate via a test link (v2)',
    body: 'V2RegisterRequest',
    success: { status: 200, body: 'V2LinkRegisterResponse' },
    errors: [400, 401, 403, 404],
  }),
  v2({
    method: 'GET',
    path: '/v2/org/report/:testInvitationId',
    operationId: 'v2.getReport',
    summary: 'Candidate report (v2)',
    success: { status: 200, body: 'V2ReportResponse' },
    errors: [400, 401, 403],
  }),
  v2({
    method: 'GET',
    path: '/v2/org/report/:testInvitationId/sections',
    operationId: 'v2.getSectionReport',
    summary: 'Section report (v2)',
    success: { status: 200, body: 'V2SectionReportResponse' },
    errors: [400, 401, 403],
  }),
  v2({
    method: 'GET',
    path: '/v2/org/report/:testInvitationId/pdf',
    operationId: 'v2.getReportPdf',
    summary: 'Candidate report as PDF (v2)',
    success: { status: 200, body: 'pdf' },
    errors: [400, 401, 403],
  }),
  v2({
    method: 'POST',
    path: '/v2/org/tests/:testId/testlinks',
    operationId: 'v2.createLink',
    summary: 'Create a test link (v2)',
    body: 'V2TestLinkInput',
    success: { status: 200, body: 'V2TestLinkResponse' },
    errors: [400, 401, 403],
    notes: 'startDateTime and endDateTime are required when accessTime is 1 or 2, and the end must follow the start.',
  }),
  v2({
    method: 'POST',
    path: '/v2/org/tests/:testId/testlinks/:testLinkId',
    operationId: 'v2.updateLink',
    summary: 'Update a test link (v2)',
    body: 'V2TestLinkUpdate',
    bodyOptional: true,
    success: { status: 200, body: 'V2TestLinkResponse' },
    errors: [400, 401, 403, 404],
  }),
  v2({
    method: 'GET',
    path: '/v2/org/tests/:testId/testlinks',
    operationId: 'v2.listLinks',
    summary: 'List test links (v2)',
    success: { status: 200, body: 'V2TestLinksResponse' },
    errors: [400, 401, 403],
  }),
  v2({
    method: 'GET',
    path: '/v2/org/tests/:testId/testlinks/:testLinkId',
    operationId: 'v2.getLink',
    summary: 'Retrieve a test link (v2)',
    success: { status: 200, body: 'V2TestLinkResponse' },
    errors: [400, 401, 403, 404],
  }),
];
