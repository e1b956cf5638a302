// v3 attempts and callbacks (operations 15, 16); their `{result, errors}` envelope is taken off before.
import * as z from 'zod/mini';
import {
  attemptInvitationType,
  id,
  invitationStatus,
  list,
  obj,
  optId,
  optList,
  optObj,
  optText,
  arrayAs,
} from '../policy.js';

export const TestAttempt = obj({
  testInvitationId: id,
  testId: optId,
  name: optText,
  email: optText,
  invitationtype: attemptInvitationType.schema,
  testStatus: invitationStatus.schema,
});
export type TestAttempt = z.infer<typeof TestAttempt>;

export const TestAttempts = z.pipe(z.transform(arrayAs('testAttempts')), obj({ testAttempts: list(TestAttempt) }));
export type TestAttempts = z.infer<typeof TestAttempts>;

export const ProcessedCallbacks = obj({
  testinvitationIds: optObj({ successful: optList(id), failed: optList(id) }),
});
export type ProcessedCallbacks = z.infer<typeof ProcessedCallbacks>;
