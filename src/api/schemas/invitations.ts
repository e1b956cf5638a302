// Invitations: invite (3), cancel (8), reattempt (9), invite via link (10).
import * as z from 'zod';
import { EmailList, Flag, Id, ProctoringMode, TimeZoneId, UtcDateTime, YesNo } from './common.js';

const mandatoryFields = (v: { email?: string; name?: string; disableMandatoryFields?: number }, ctx: z.RefinementCtx) => {
  if (v.disableMandatoryFields === 1) return;
  if (!v.email) ctx.addIssue({ code: 'custom', path: ['email'], message: 'email is required' });
  if (!v.name) ctx.addIssue({ code: 'custom', path: ['name'], message: 'name is required' });
};

const InviteCommon = {
  email: z
    .string()
    .trim()
    .pipe(z.union([z.literal(''), z.email('is not a valid e-mail address')]))
    .optional(),
  name: z.string().trim().max(200).optional(),
  callbackUrl: z.url('must be a URL').optional(),
  callbackURL: z.url('must be a URL').optional(),
  redirectUrl: z.url('must be a URL').optional(),
  redirectURL: z.url('must be a URL').optional(),
  disableMandatoryFields: Flag.default(0),
  hideInstruction: Flag.default(0),
  sendEmail: YesNo.default('no'),
  imageProctoring: Flag.optional(),
};

/**
 * Body of invite via the default link (3). email and name are required unless
 * disableMandatoryFields is 1. `callbackURL`/`redirectURL` (sample spelling) are accepted too.
 */
export const InviteRequest = z
  .object({
    ...InviteCommon,
    /** Comma-separated e-mails, or `disable` to turn stakeholder e-mails off for this invitation. */
    stakeholderEmails: z.union([z.literal('disable'), EmailList]).optional(),
    startDateTime: UtcDateTime.optional(),
    endDateTime: UtcDateTime.optional(),
    timeZoneId: TimeZoneId.optional(),
    ProctoringMode: ProctoringMode.optional(),
  })
  .superRefine(mandatoryFields)
  .superRefine((v, ctx) => {
    if (v.startDateTime && v.endDateTime && Date.parse(v.endDateTime) <= Date.parse(v.startDateTime))
      ctx.addIssue({ code: 'custom', path: ['endDateTime'], message: 'endDateTime must be after startDateTime' });
  });
export type InviteRequest = z.infer<typeof InviteRequest>;

/** Body of invite via a chosen link (10). */
export const InviteByLinkRequest = z.object(InviteCommon).superRefine(mandatoryFields);
export type InviteByLinkRequest = z.infer<typeof InviteByLinkRequest>;

export const InviteResponse = z.looseObject({ testInvitationId: Id, testUrl: z.string(), status: z.string() });
export type InviteResponse = z.infer<typeof InviteResponse>;
export const InviteByLinkResponse = z.looseObject({
  testInvitationId: Id,
  testUrl: z.string(),
  status: z.string().optional(),
});
export type InviteByLinkResponse = z.infer<typeof InviteByLinkResponse>;

/** Body of reattempt (9), PascalCase as in the spec. */
export const ReattemptRequest = z
  .object({
    StartDateTime: UtcDateTime,
    EndDateTime: UtcDateTime,
    TimeZoneId: TimeZoneId,
    CallbackUrl: z.url('must be a URL').optional(),
    RedirectUrl: z.url('must be a URL').optional(),
    hideInstruction: Flag.default(0),
    sendEmail: YesNo.default('no'),
  })
  .refine((v) => Date.parse(v.EndDateTime) > Date.parse(v.StartDateTime), {
    message: 'EndDateTime must be after StartDateTime',
    path: ['EndDateTime'],
  });
export type ReattemptRequest = z.infer<typeof ReattemptRequest>;

export const ReattemptResponse = z.looseObject({
  testInvitationId: Id,
  testUrl: z.string(),
  callbackUrlRegistered: z.string().nullish(),
  redirectUrlRegistered: z.string().nullish(),
});
export type ReattemptResponse = z.infer<typeof ReattemptResponse>;

/** Cancel (8): no body is needed; an empty object (or none) is accepted. */
export const CancelRequest = z.object({}).loose();
export type CancelRequest = z.infer<typeof CancelRequest>;
/** Cancel (8) response — not shown in the spec; production (and the sandbox) answer 200 with `status: "cancelled"`. */
export const CancelResponse = z.looseObject({ testInvitationId: Id, status: z.string() });
export type CancelResponse = z.infer<typeof CancelResponse>;
