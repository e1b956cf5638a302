// Invitation schedules of test links (request: strict per the schedule rules; response: lenient).
import * as z from 'zod/mini';
import { TimeZoneId, UtcDateTime } from './common.js';

const ValidityInDaysSchedule = z.object({
  scheduleType: z.literal('validityindays'),
  scheduleDetails: z.object({
    invitationValidityInDays: z.number().check(z.int(), z.minimum(1), z.maximum(3650)),
    timeZoneId: TimeZoneId,
  }),
});
const WindowSchedule = z.object({
  scheduleType: z.literal(['timebound', 'slotwise']),
  scheduleDetails: z.object({ startDateTime: UtcDateTime, endDateTime: UtcDateTime, timeZoneId: TimeZoneId }).check(
    z.refine((d) => Date.parse(d.endDateTime) > Date.parse(d.startDateTime), {
      message: 'endDateTime must be after startDateTime',
      path: ['endDateTime'],
    }),
  ),
});
/**
 * Request schedule: `validityindays` needs invitationValidityInDays + timeZoneId;
 * `timebound`/`slotwise` need startDateTime, endDateTime (after start) and timeZoneId.
 */
export const InvitationScheduleInput = z.discriminatedUnion('scheduleType', [ValidityInDaysSchedule, WindowSchedule], {
  error: (iss) =>
    iss.code === 'invalid_union' ? "must be one of 'validityindays', 'timebound', 'slotwise'" : undefined,
});
export type InvitationScheduleInput = z.infer<typeof InvitationScheduleInput>;

/** Response schedule: every detail optional and nullable. */
export const InvitationSchedule = z.looseObject({
  scheduleType: z.string(),
  scheduleDetails: z.nullish(
    z.looseObject({
      startDateTime: z.nullish(z.string()),
      endDateTime: z.nullish(z.string()),
      timeZoneId: z.nullish(z.number()),
      invitationValidityInDays: z.nullish(z.number()),
    }),
  ),
});
export type InvitationSchedule = z.infer<typeof InvitationSchedule>;
