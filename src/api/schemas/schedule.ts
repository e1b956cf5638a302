// Invitation schedules of test links (request: strict per the schedule rules; response: lenient).
import * as z from 'zod';
import { TimeZoneId, UtcDateTime } from './common.js';

const ValidityInDaysSchedule = z.object({
  scheduleType: z.literal('validityindays'),
  scheduleDetails: z.object({
    invitationValidityInDays: z.number().int().min(1).max(3650),
    timeZoneId: TimeZoneId,
  }),
});
const WindowSchedule = z.object({
  scheduleType: z.literal(['timebound', 'slotwise']),
  scheduleDetails: z
    .object({ startDateTime: UtcDateTime, endDateTime: UtcDateTime, timeZoneId: TimeZoneId })
    .refine((d) => Date.parse(d.endDateTime) > Date.parse(d.startDateTime), {
      message: 'endDateTime must be after startDateTime',
      path: ['endDateTime'],
    }),
});
/**
 * Request schedule: `validityindays` needs invitationValidityInDays + timeZoneId;
 * `timebound`/`slotwise` need startDateTime, endDateTime (after start) and timeZoneId.
 */
export const InvitationScheduleInput = z.discriminatedUnion('scheduleType', [ValidityInDaysSchedule, WindowSchedule], {
  error: (iss) => (iss.code === 'invalid_union' ? "must be one of 'validityindays', 'timebound', 'slotwise'" : undefined),
});
export type InvitationScheduleInput = z.infer<typeof InvitationScheduleInput>;

/** Response schedule: every detail optional and nullable. */
export const InvitationSchedule = z.looseObject({
  scheduleType: z.string(),
  scheduleDetails: z
    .looseObject({
      startDateTime: z.string().nullish(),
      endDateTime: z.string().nullish(),
      timeZoneId: z.number().nullish(),
      invitationValidityInDays: z.number().nullish(),
    })
    .nullish(),
});
export type InvitationSchedule = z.infer<typeof InvitationSchedule>;
