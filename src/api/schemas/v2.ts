// The deprecated v2 wire format (spec: "v2 endpoints"). Every success is wrapped in
// {statuscode, description, result}. Requests are strict (the sandbox refuses what the spec does
// not describe, e.g. a date with a trailing Z); responses are lenient (loose objects).
import * as z from 'zod/mini';
import { EmailList, Id, invalidValue, realDateTime } from './common.js';
import { emailPattern } from './email.js';

// ───────────── building blocks ─────────────

const V2_DATE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})$/;

/** v2 date-time: `YYYY-MM-ddTHH:mm:ss`, UTC, without a zone suffix (the v3 form ends in Z). */
export const V2DateTime = realDateTime(
  V2_DATE,
  'must be a UTC date-time in the v2 format YYYY-MM-ddTHH:mm:ss (no Z suffix)',
);

export { fromV2DateTime, toV2DateTime } from '../v2-date-time.js';

/** accessTime: 0 anytime, 1 time bound, 2 slot wise. */
export const AccessTime = z.literal([0, 1, 2], invalidValue('must be 0 (anytime), 1 (time bound) or 2 (slot wise)'));
export type AccessTime = z.infer<typeof AccessTime>;
/** testLinkStatus: 1 active, 3 inactive. */
export const V2LinkStatus = z.literal([1, 3], invalidValue('must be 1 (active) or 3 (inactive)'));
export type V2LinkStatus = z.infer<typeof V2LinkStatus>;
const Flag01 = z.literal([0, 1], invalidValue('must be 0 or 1'));

/** The envelope of every v2 success (statuscode "200.1" in the samples). */
export function envelope<T extends z.core.$ZodType>(result: T) {
  return z.looseObject({
    statuscode: z.pipe(z.union([z.string(), z.number()]), z.transform(String)),
    description: z.nullish(z.string()),
    result,
  });
}

/**
 * A v2 error. The spec shows no v2 error shape; the sandbox answers in the envelope's own
 * vocabulary, `{statuscode: "<HTTP status>.1", description}`, with the same HTTP status.
 */
export const V2ErrorBody = z.looseObject({ statuscode: z.string(), description: z.string() });
export type V2ErrorBody = z.infer<typeof V2ErrorBody>;

// ───────────── tests ─────────────

export const V2Test = z.looseObject({
  testId: Id,
  testName: z.string(),
  accessKey: z.nullish(z.string()),
  duration: z.nullish(z.number()),
  questions: z.nullish(z.number()),
  testStatus: z.nullish(z.string()),
});
export type V2Test = z.infer<typeof V2Test>;
export const V2TestsResult = z.looseObject({ tests: z.array(V2Test), testsCount: z.optional(z.number()) });
export type V2TestsResult = z.infer<typeof V2TestsResult>;

export const V2ListTestsQuery = z.object({
  page_no: z._default(z.coerce.number().check(z.int(), z.minimum(1)), 1),
  page_size: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100)), 20),
});

export const V2Section = z.looseObject({
  sectionName: z.string(),
  sectionType: z.nullish(z.string()),
  questions: z.nullish(z.number()),
  duration: z.nullish(z.number()),
});
export const V2TestDetail = z.extend(V2Test, { sections: z.optional(z.array(V2Section)) });
export type V2TestDetail = z.infer<typeof V2TestDetail>;

// ───────────── register ─────────────

/** Body of both registers. The spec spells callbackURL / redirectURL; the v3 spellings are accepted too. */
export const V2RegisterRequest = z.object({
  emailId: z.pipe(
    z.string().check(z.trim()),
    z.email({ pattern: emailPattern(), error: 'is not a valid e-mail address' }),
  ),
  fullName: z.string().check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(200)),
  callbackURL: z.optional(z.url('must be a URL')),
  redirectURL: z.optional(z.url('must be a URL')),
  callbackUrl: z.optional(z.url('must be a URL')),
  redirectUrl: z.optional(z.url('must be a URL')),
});
export type V2RegisterRequest = z.infer<typeof V2RegisterRequest>;

export const V2RegisterResult = z.looseObject({ testInvitationId: Id, takeTestURL: z.string() });
export type V2RegisterResult = z.infer<typeof V2RegisterResult>;
export const V2LinkRegisterResult = z.looseObject({
  testInvitationId: Id,
  testUrl: z.string(),
  testAccessTime: z.nullish(z.string()),
});
export type V2LinkRegisterResult = z.infer<typeof V2LinkRegisterResult>;

// ───────────── reports ─────────────

export const V2TestStatus = z.enum(['Pending', 'In progress', 'Completed', 'Reset', 'Cancelled', 'Expired']);
export const V2ReportStatus = z.enum(['Pending', 'In progress', 'Generated']);

export const V2Report = z.looseObject({
  emailId: z.string(),
  fullName: z.nullish(z.string()),
  timeTaken: z.nullish(z.number()),
  testName: z.nullish(z.string()),
  duration: z.nullish(z.number()),
  questions: z.nullish(z.number()),
  attemptedOn: z.nullish(z.string()),
  totalScore: z.nullish(z.union([z.string(), z.number()])),
  score: z.nullish(z.union([z.string(), z.number()])),
  wv: z.nullish(z.number()),
  tv: z.nullish(z.number()),
  testStatus: z.string(),
  reportStatus: z.nullish(z.string()),
});
export type V2Report = z.infer<typeof V2Report>;

export const V2SectionScore = z.looseObject({
  sectionName: z.string(),
  sectionScore: z.nullish(z.union([z.string(), z.number()])),
  candidateScore: z.nullish(z.union([z.string(), z.number()])),
});
export const V2SectionReport = z.array(V2SectionScore);
export type V2SectionScore = z.infer<typeof V2SectionScore>;

// ───────────── test links ─────────────

export const V2TestLink = z.looseObject({
  testLinkId: Id,
  testId: Id,
  testLinkName: z.string(),
  testLinkAccessKey: z.nullish(z.string()),
  accessTime: z.number(),
  startDateTime: z.nullish(z.string()),
  endDateTime: z.nullish(z.string()),
  timeZoneId: z.nullish(z.number()),
  inviteCandidateOnly: z.nullish(z.number()),
  imageProctoring: z.nullish(z.number()),
  emailToStakeholder: z.nullish(z.string()),
  testLinkStatus: z.number(),
});
export type V2TestLink = z.infer<typeof V2TestLink>;
export const V2TestLinksResult = z.looseObject({ testLinks: z.array(V2TestLink) });

const linkFields = {
  testLinkName: z.string().check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(200)),
  accessTime: AccessTime,
  timeZoneId: z.number().check(z.int(), z.nonnegative()),
  inviteCandidateOnly: Flag01,
  imageProctoring: Flag01,
  emailToStakeholder: z.nullable(EmailList),
  testLinkStatus: V2LinkStatus,
  startDateTime: z.nullable(V2DateTime),
  endDateTime: z.nullable(V2DateTime),
};

/** start/end are required with accessTime 1 or 2, and the end must follow the start. */
function windowRule(
  v: { accessTime?: number; startDateTime?: string | null; endDateTime?: string | null },
  ctx: z.core.$RefinementCtx,
) {
  if (v.accessTime !== 1 && v.accessTime !== 2) return;
  if (!v.startDateTime)
    ctx.addIssue({
      code: 'custom',
      path: ['startDateTime'],
      message: 'startDateTime is required when accessTime is 1 or 2',
    });
  if (!v.endDateTime)
    ctx.addIssue({
      code: 'custom',
      path: ['endDateTime'],
      message: 'endDateTime is required when accessTime is 1 or 2',
    });
  if (v.startDateTime && v.endDateTime && Date.parse(`${v.endDateTime}Z`) <= Date.parse(`${v.startDateTime}Z`))
    ctx.addIssue({ code: 'custom', path: ['endDateTime'], message: 'endDateTime must be after startDateTime' });
}

/**
 * Body of create. Only testLinkName is truly required: accessTime defaults to 0, timeZoneId to
 * the account's, emailToStakeholder to the account e-mail (the spec's defaults).
 */
export const V2TestLinkInput = z
  .object({
    ...linkFields,
    accessTime: z._default(AccessTime, 0),
    timeZoneId: z.optional(linkFields.timeZoneId),
    inviteCandidateOnly: z._default(Flag01, 0),
    imageProctoring: z._default(Flag01, 0),
    emailToStakeholder: z.optional(linkFields.emailToStakeholder),
    testLinkStatus: z._default(V2LinkStatus, 1),
    startDateTime: z.optional(linkFields.startDateTime),
    endDateTime: z.optional(linkFields.endDateTime),
  })
  .check(z.superRefine(windowRule));
export type V2TestLinkInput = z.infer<typeof V2TestLinkInput>;

/** Body of update: "same body as create"; what is given replaces the stored value. */
export const V2TestLinkUpdate = z.partial(z.object(linkFields));
export type V2TestLinkUpdate = z.infer<typeof V2TestLinkUpdate>;
export { windowRule as v2WindowRule };
