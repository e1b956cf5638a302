// Invitations: invite (3), cancel (8), reattempt (9), invite via link (10).
import * as z from 'zod/mini';
import { EmailList, Flag, Id, ProctoringMode, TimeZoneId, UtcDateTime, YesNo } from './common.js';
import { emailPattern } from './email.js';

const mandatoryFields = (
  v: { email?: string; name?: string; disableMandatoryFields?: number },
  ctx: z.core.$RefinementCtx,
) => {
  if (v.disableMandatoryFields === 1) return;
  if (!v.email) ctx.addIssue({ code: 'custom', path: ['email'], message: 'email is required' });
  if (!v.name) ctx.addIssue({ code: 'custom', path: ['name'], message: 'name is required' });
};

const InviteCommon = {
  email: z.optional(
    z.pipe(
      z.string().check(z.trim()),
      z.union([z.literal(''), z.email({ pattern: emailPattern(), error: 'is not a valid e-mail address' })]),
    ),
  ),
  name: z.optional(z.string().check(z.trim(), z.maxLength(200))),
  callbackUrl: z.optional(z.url('must be a URL')),
  callbackURL: z.optional(z.url('must be a URL')),
  redirectUrl: z.optional(z.url('must be a URL')),
  redirectURL: z.optional(z.url('must be a URL')),
  disableMandatoryFields: z._default(Flag, 0),
  hideInstruction: z._default(Flag, 0),
  sendEmail: z._default(YesNo, 'no'),
  imageProctoring: z.optional(Flag),
};

/**
 * Body of invite via the default link (3). email and name are required unless
 * disableMandatoryFields is 1. `callbackURL`/`redirectURL` (sample spelling) are accepted too.
 */
export const InviteRequest = z
  .object({
    ...InviteCommon,
    /** Comma-separated e-mails, or `disable` to turn stakeholder e-mails off for this invitation. */
    stakeholderEmails: z.optional(z.union([z.literal('disable'), EmailList])),
    startDateTime: z.optional(UtcDateTime),
    endDateTime: z.optional(UtcDateTime),
    timeZoneId: z.optional(TimeZoneId),
    ProctoringMode: z.optional(ProctoringMode),
  })
  .check(z.superRefine(mandatoryFields))
  .check(
    z.superRefine((v, ctx) => {
      if (v.startDateTime && v.endDateTime && Date.parse(v.endDateTime) <= Date.parse(v.startDateTime))
        ctx.addIssue({ code: 'custom', path: ['endDateTime'], message: 'endDateTime must be after startDateTime' });
    }),
  );
export type InviteRequest = z.infer<typeof InviteRequest>;

/** Body of invite via a chosen link (10). */
export const InviteByLinkRequest = z.object(InviteCommon).check(z.superRefine(mandatoryFields));
export type InviteByLinkRequest = z.infer<typeof InviteByLinkRequest>;

export const InviteResponse = z.looseObject({ testInvitationId: Id, testUrl: z.string(), status: z.string() });
export type InviteResponse = z.infer<typeof InviteResponse>;
export const InviteByLinkResponse = z.looseObject({
  testInvitationId: Id,
  testUrl: z.string(),
  status: z.optional(z.string()),
});
export type InviteByLinkResponse = z.infer<typeof InviteByLinkResponse>;

/** Body of reattempt (9), PascalCase as in the spec. */
export const ReattemptRequest = z
  .object({
    StartDateTime: UtcDateTime,
    EndDateTime: UtcDateTime,
    TimeZoneId: TimeZoneId,
    CallbackUrl: z.optional(z.url('must be a URL')),
    RedirectUrl: z.optional(z.url('must be a URL')),
    hideInstruction: z._default(Flag, 0),
    sendEmail: z._default(YesNo, 'no'),
  })
  .check(
    z.refine((v) => Date.parse(v.EndDateTime) > Date.parse(v.StartDateTime), {
      message: 'EndDateTime must be after StartDateTime',
      path: ['EndDateTime'],
    }),
  );
export type ReattemptRequest = z.infer<typeof ReattemptRequest>;

export const ReattemptResponse = z.looseObject({
  testInvitationId: Id,
  testUrl: z.string(),
  callbackUrlRegistered: z.nullish(z.string()),
  redirectUrlRegistered: z.nullish(z.string()),
});
export type ReattemptResponse = z.infer<typeof ReattemptResponse>;

/** Cancel (8): no body is needed; an empty object (or none) is accepted. */
export const CancelRequest = z.looseObject({});
export type CancelRequest = z.infer<typeof CancelRequest>;
/** Cancel (8) response — not shown in the spec; production (and the sandbox) answer 200 with `status: "cancelled"`. */
export const CancelResponse = z.looseObject({ testInvitationId: Id, status: z.string() });
export type CancelResponse = z.infer<typeof CancelResponse>;
