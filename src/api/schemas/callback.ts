// Completion notifications (callbacks) the service POSTs to an invitation's callback URL, as the
// sandbox SENDS them (the full v3 object; v2 invitations: the six-field v2 object). Fields are
// PascalCase (GUIDE: v3 fields; spec Events: v2 fields). Reading what arrives is tolerant and
// lives in src/api/read/callback.ts (`callbacks listen` stores first and reads with that).
import * as z from 'zod/mini';

/** Integer64 ids may be JSON numbers or (for values beyond 2^53) strings of digits. */
const WireId = z.union([
  z.number().check(z.int(), z.nonnegative()),
  z.string().check(z.regex(/^\d{1,19}$/, 'must be digits')),
]);
const Score = z.number();
const DateTimeText = z.string().check(z.minLength(1));

/** v2 callback object (spec, Events). */
export const CallbackV2 = z.looseObject({
  CandidateEmailId: z.string(),
  AttemptedOn: z.nullable(DateTimeText),
  TotalScore: Score,
  CandidateScore: Score,
  ReportPDFUrl: z.nullable(z.string()),
  TestInvitationId: WireId,
});
export type CallbackV2 = z.infer<typeof CallbackV2>;

/** v3 callback object: sent when the attempt goes In Progress and at its terminal state. */
export const CallbackV3 = z.extend(CallbackV2, {
  AttemptedOnUtc: z.nullable(DateTimeText),
  /** `ReportPDFUrl` is null while the attempt is In Progress. */
  Status: z.string().check(z.minLength(1)),
  PerformanceCategory: z.nullable(z.string()),
});
export type CallbackV3 = z.infer<typeof CallbackV3>;
