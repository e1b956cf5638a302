// Test links: list (6), get (7), create (11), update (12).
import * as z from 'zod/mini';
import { EmailList, Id, ProctoringMode } from './common.js';
import { InvitationType, TestLinkStatus } from './enums.js';
import { InvitationSchedule, InvitationScheduleInput } from './schedule.js';

export const TestLink = z.looseObject({
  testLinkId: Id,
  testId: Id,
  testLinkName: z.string(),
  testLink: z.optional(z.string()),
  testLinkStatus: z.string(),
  invitationType: z.optional(z.string()),
  isApiLink: z.optional(z.boolean()),
  proctoringSettings: z.nullish(z.looseObject({ proctoringMode: z.string() })),
  stakeholderEmails: z.nullish(z.string()),
  invitationSchedule: z.nullish(InvitationSchedule),
});
export type TestLink = z.infer<typeof TestLink>;

export const TestLinksResponse = z.looseObject({ testLinks: z.array(TestLink) });
export type TestLinksResponse = z.infer<typeof TestLinksResponse>;

/** Body of create (11). testLinkName, invitationType and invitationSchedule are required. */
export const TestLinkInput = z.object({
  testId: z.optional(Id),
  testLinkName: z.string().check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(200)),
  testLinkStatus: z._default(TestLinkStatus, 'active'),
  invitationType: InvitationType,
  isApiLink: z.optional(z.boolean()),
  proctoringSettings: z._default(z.object({ proctoringMode: ProctoringMode }), { proctoringMode: 'disabled' }),
  stakeholderEmails: z.nullish(EmailList),
  invitationSchedule: InvitationScheduleInput,
});
export type TestLinkInput = z.infer<typeof TestLinkInput>;

/**
 * Body of update (12). Every field optional: what is given replaces the stored value, the rest
 * is kept (the sandbox then re-validates the merged link with TestLinkInput).
 * `invitationSchedule`, when given, is replaced as a whole.
 */
export const TestLinkUpdateInput = z.object({
  testId: z.optional(Id),
  testLinkName: z.optional(z.string().check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(200))),
  testLinkStatus: z.optional(TestLinkStatus),
  invitationType: z.optional(InvitationType),
  isApiLink: z.optional(z.boolean()),
  proctoringSettings: z.optional(z.object({ proctoringMode: ProctoringMode })),
  stakeholderEmails: z.nullish(EmailList),
  invitationSchedule: z.optional(InvitationScheduleInput),
});
export type TestLinkUpdateInput = z.infer<typeof TestLinkUpdateInput>;
