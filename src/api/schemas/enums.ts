// Enumerations and error-body shapes of the v3 wire format.
import * as z from 'zod/mini';
import { invalidValue } from './common.js';
import { ATTEMPT_STATES } from '../wire-constants.js';

export const InvitationStatus = z.enum([
  'Pending',
  'In Progress',
  'Complete',
  'Test Left',
  'Terminated',
  'Cancelled',
  'Expired',
]);
export type InvitationStatus = z.infer<typeof InvitationStatus>;

export const TestLinkStatus = z.enum(['active', 'inactive'], invalidValue("must be 'active' or 'inactive'"));
export type TestLinkStatus = z.infer<typeof TestLinkStatus>;
export const InvitationType = z.enum(['email', 'open'], invalidValue("must be 'email' or 'open'"));
export type InvitationType = z.infer<typeof InvitationType>;
export const ScheduleType = z.enum(
  ['validityindays', 'timebound', 'slotwise'],
  invalidValue("must be one of 'validityindays', 'timebound', 'slotwise'"),
);
export type ScheduleType = z.infer<typeof ScheduleType>;
export const AttemptState = z.enum(ATTEMPT_STATES, invalidValue("must be one of 'completed', 'cancelled', 'expired'"));
export type AttemptState = z.infer<typeof AttemptState>;
export const ReportType = z.literal([1, 2, 3], invalidValue('must be 1, 2 or 3'));
export type ReportType = z.infer<typeof ReportType>;

// Error bodies

/** 400 on invite, invite by link, create/update link, update settings, report. */
export const ErrorsBody = z.looseObject({ errors: z.array(z.union([z.string(), z.number()])) });
export type ErrorsBody = z.infer<typeof ErrorsBody>;
/** 400 on reattempt, 403 on list links. */
export const StatusMessageBody = z.looseObject({ statusCode: z.number(), message: z.string() });
export type StatusMessageBody = z.infer<typeof StatusMessageBody>;
/** 401 on list attempts and process callbacks (`errors` may carry the offending ids). */
export const ResultErrorsBody = z.looseObject({
  result: z.null(),
  errors: z.array(z.union([z.string(), z.number()])),
});
export type ResultErrorsBody = z.infer<typeof ResultErrorsBody>;
