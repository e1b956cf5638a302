// v3 test links (operations 6, 7, 11, 12): read tolerantly (policy.ts).
import * as z from 'zod/mini';
import {
  id,
  invitationType,
  linkStatus,
  list,
  obj,
  optBool,
  optId,
  optNum,
  optObj,
  optText,
  proctoringMode,
  scheduleType,
  arrayAs,
} from '../policy.js';

const ScheduleDetails = optObj({
  startDateTime: optText,
  endDateTime: optText,
  timeZoneId: optId,
  invitationValidityInDays: optNum,
});
export const TestLink = obj({
  testLinkId: id,
  testId: optId,
  testLinkName: optText,
  testLink: optText,
  testLinkStatus: linkStatus.schema,
  invitationType: invitationType.schema,
  isApiLink: optBool,
  proctoringSettings: optObj({ proctoringMode: proctoringMode.schema }),
  stakeholderEmails: optText,
  invitationSchedule: optObj({ scheduleType: scheduleType.schema, scheduleDetails: ScheduleDetails }),
});
export type TestLink = z.infer<typeof TestLink>;

export const TestLinks = z.pipe(z.transform(arrayAs('testLinks')), obj({ testLinks: list(TestLink) }));
export type TestLinks = z.infer<typeof TestLinks>;

/** What a create or update answers: the link, though it may lack its id (the write succeeded). */
export const WrittenLink = obj({ ...TestLink.def.out.shape, testLinkId: optId });
export type WrittenLink = z.infer<typeof WrittenLink>;
