// The strict wire schemas by name: what the operation table (src/api/operations/) names as an
// operation's query, body and answer, what the sandbox validates requests with and answers, and
// the components of the OpenAPI document. Nothing here is a new shape, only a name for one, except
// the v2 answers, which are `envelope(result)`: every v2 success comes in that envelope.
import type * as z from 'zod/mini';
import * as S from './index.js';
import * as V2 from './v2.js';

/** Request bodies and query objects (what a client sends; parsed by the sandbox). */
export const REQUEST_SCHEMAS = {
  ListTestsQuery: S.ListTestsQuery,
  ReportQuery: S.ReportQuery,
  ListAttemptsQuery: S.ListAttemptsQuery,
  InviteRequest: S.InviteRequest,
  InviteByLinkRequest: S.InviteByLinkRequest,
  CancelRequest: S.CancelRequest,
  ReattemptRequest: S.ReattemptRequest,
  TestLinkInput: S.TestLinkInput,
  TestLinkUpdateInput: S.TestLinkUpdateInput,
  TestSettings: S.TestSettings,
  ListAttemptsRequest: S.ListAttemptsRequest,
  ProcessCallbacksRequest: S.ProcessCallbacksRequest,
  V2ListTestsQuery: V2.V2ListTestsQuery,
  V2RegisterRequest: V2.V2RegisterRequest,
  V2TestLinkInput: V2.V2TestLinkInput,
  V2TestLinkUpdate: V2.V2TestLinkUpdate,
} satisfies Record<string, z.core.$ZodType>;

/** Answers (what the sandbox sends; read tolerantly by the client), error bodies included. */
export const RESPONSE_SCHEMAS = {
  TestsListResponse: S.TestsListResponse,
  TimeZonesResponse: S.TimeZonesResponse,
  TestDetail: S.TestDetail,
  InviteResponse: S.InviteResponse,
  InviteByLinkResponse: S.InviteByLinkResponse,
  CancelResponse: S.CancelResponse,
  ReattemptResponse: S.ReattemptResponse,
  Report: S.Report,
  TestLink: S.TestLink,
  TestLinksResponse: S.TestLinksResponse,
  TestSettingsResponse: S.TestSettingsResponse,
  ListAttemptsResponse: S.ListAttemptsResponse,
  ProcessCallbacksResponse: S.ProcessCallbacksResponse,
  ErrorsBody: S.ErrorsBody,
  StatusMessageBody: S.StatusMessageBody,
  ResultErrorsBody: S.ResultErrorsBody,
  V2TestsResponse: V2.envelope(V2.V2TestsResult),
  V2TestDetailResponse: V2.envelope(V2.V2TestDetail),
  V2RegisterResponse: V2.envelope(V2.V2RegisterResult),
  V2LinkRegisterResponse: V2.envelope(V2.V2LinkRegisterResult),
  V2ReportResponse: V2.envelope(V2.V2Report),
  V2SectionReportResponse: V2.envelope(V2.V2SectionReport),
  V2TestLinkResponse: V2.envelope(V2.V2TestLink),
  V2TestLinksResponse: V2.envelope(V2.V2TestLinksResult),
  V2ErrorBody: V2.V2ErrorBody,
} satisfies Record<string, z.core.$ZodType>;

export const WIRE = { ...REQUEST_SCHEMAS, ...RESPONSE_SCHEMAS };

export type RequestSchemaName = keyof typeof REQUEST_SCHEMAS;
export type ResponseSchemaName = keyof typeof RESPONSE_SCHEMAS;
