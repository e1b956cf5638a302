// List attempts by state (15) and process callbacks (16).
import * as z from 'zod/mini';
import { Id } from './common.js';
import { AttemptState } from './enums.js';
import { MAX_CALLBACK_IDS } from '../wire-constants.js';

/**
 * `yyyy-MM-dd`, `yyyy-MM-ddTHH:mm:ss` or either with `Z`; a date without time is 00:00:00 UTC.
 * Returns epoch ms, or null when the value is not such a date-time.
 */
export function parseAttemptDateTime(v: unknown): number | null {
  if (typeof v !== 'string') return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2}))?Z?$/.exec(v);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = [m[1], m[2], m[3], m[4] ?? '0', m[5] ?? '0', m[6] ?? '0'].map(Number);
  if (v.endsWith('Z') && m[4] === undefined) return null; // "2025-01-01Z" is not a documented form
  const t = Date.UTC(y, mo - 1, d, h, mi, s);
  const back = new Date(t);
  return back.getUTCDate() === d && back.getUTCMonth() === mo - 1 && back.getUTCHours() === h ? t : null;
}

const AttemptDateTime = z.string().check(
  z.refine((v) => parseAttemptDateTime(v) !== null, {
    message: 'must be a date-time yyyy-MM-ddTHH:mm:ss (optionally ending in Z) or a date yyyy-MM-dd',
  }),
);

/** Body of list attempts (15); invalid or missing values are a 401 `{result:null, errors}`. */
export const ListAttemptsRequest = z.object({ StartDateTime: AttemptDateTime, EndDateTime: AttemptDateTime });
export type ListAttemptsRequest = z.infer<typeof ListAttemptsRequest>;
export const ListAttemptsQuery = z.object({ state: AttemptState });
export type ListAttemptsQuery = z.infer<typeof ListAttemptsQuery>;

export const TestAttempt = z.looseObject({
  testInvitationId: Id,
  testId: Id,
  name: z.string(),
  email: z.string(),
  invitationtype: z.string(),
  testStatus: z.string(),
});
export type TestAttempt = z.infer<typeof TestAttempt>;

export const ListAttemptsResponse = z.looseObject({
  result: z.looseObject({ testAttempts: z.array(TestAttempt) }),
  errors: z.optional(z.null()),
});
export type ListAttemptsResponse = z.infer<typeof ListAttemptsResponse>;

// Callbacks (16)

export { MAX_CALLBACK_IDS };

/** Body of process callbacks (16): 1 to 100 invitation ids. */
export const ProcessCallbacksRequest = z.object({
  testinvitationIds: z
    .array(Id)
    .check(
      z.minLength(1, 'must list at least one id'),
      z.maxLength(
        MAX_CALLBACK_IDS,
        `at most ${MAX_CALLBACK_IDS} ids per call; split the list into batches of ${MAX_CALLBACK_IDS}`,
      ),
    ),
});
export type ProcessCallbacksRequest = z.infer<typeof ProcessCallbacksRequest>;

export const ProcessCallbacksResponse = z.looseObject({
  result: z.looseObject({
    testinvitationIds: z.looseObject({ successful: z.array(Id), failed: z.array(Id) }),
  }),
  errors: z.optional(z.null()),
});
export type ProcessCallbacksResponse = z.infer<typeof ProcessCallbacksResponse>;
