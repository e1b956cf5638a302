// Test links: list (6), get (7), create (11), update (12).
import * as z from 'zod';
import { EmailList, Id, ProctoringMode } from './common.js';
import { InvitationType, TestLinkStatus } from './enums.js';
import { InvitationSchedule, InvitationScheduleInput } from './schedule.js';

export const TestLink = z.looseObject({
  testLinkId: Id,
  testId: Id,
  testLinkName: z.string(),
  testLink: z.string().optional(),
  testLinkStatus: z.string(),
  invitationType: z.string().optional(),
  isApiLink: z.boolean().optional(),
  proctoringSettings: z.looseObject({ proctoringMode: z.string() }).nullish(),
  stakeholderEmails: z.string().nullish(),
  invitationSchedule: InvitationSchedule.nullish(),
});
export type TestLink = z.infer<typeof TestLink>;

export const TestLinksResponse = z.looseObject({ testLinks: z.array(TestLink) });
export type TestLinksResponse = z.infer<typeof TestLinksResponse>;

/** Body of create (11). testLinkName, invitationType and invitationSchedule are required. */
export const TestLinkInput = z.object({
  testId: Id.optional(),
  testLinkName: z.string().trim().min(1, 'must not be empty').max(200),
  testLinkStatus: TestLinkStatus.default('active'),
  invitationType: InvitationType,
  isApiLink: z.boolean().optional(),
  proctoringSettings: z.object({ proctoringMode: ProctoringMode }).default({ proctoringMode: 'disabled' }),
  stakeholderEmails: EmailList.nullish(),
  invitationSchedule: InvitationScheduleInput,
});
export type TestLinkInput = z.infer<typeof TestLinkInput>;

/**
 * Body of update (12). Every field optional: what is given replaces the stored value, the rest
 * is kept (the sandbox then re-validates the merged link with TestLinkInput).
 * `invitationSchedule`, when given, is replaced as a whole.
 */
export const TestLinkUpdateInput = z.object({
  testId: Id.optional(),
  testLinkName: z.string().trim().min(1, 'must not be empty').max(200).optional(),
  testLinkStatus: TestLinkStatus.optional(),
  invitationType: InvitationType.optional(),
  isApiLink: z.boolean().optional(),
  proctoringSettings: z.object({ proctoringMode: ProctoringMode }).optional(),
  stakeholderEmails: EmailList.nullish(),
  invitationSchedule: InvitationScheduleInput.optional(),
});
export type TestLinkUpdateInput = z.infer<typeof TestLinkUpdateInput>;
