// Completion notifications (callbacks) the service POSTs to an invitation's callback URL, as the
// sandbox SENDS them (the full v3 object; v2 invitations: the six-field v2 object). Fields are
// PascalCase (GUIDE: v3 fields; spec Events: v2 fields). Reading what arrives is tolerant and
// lives in src/api/read/callback.ts (`callbacks listen` stores first and reads with that).
import * as z from 'zod';

/** Integer64 ids may be JSON numbers or (for values beyond 2^53) strings of digits. */
const WireId = z.union([z.number().int().nonnegative(), z.string().regex(/^\d{1,19}$/, 'must be digits')]);
const Score = z.number();
const DateTimeText = z.string().min(1);

/** v2 callback object (spec, Events). */
export const CallbackV2 = z.looseObject({
  CandidateEmailId: z.string(),
  AttemptedOn: DateTimeText.nullable(),
  TotalScore: Score,
  CandidateScore: Score,
  ReportPDFUrl: z.string().nullable(),
  TestInvitationId: WireId,
});
export type CallbackV2 = z.infer<typeof CallbackV2>;

/** v3 callback object: sent when the attempt goes In Progress and at its terminal state. */
export const CallbackV3 = CallbackV2.extend({
  AttemptedOnUtc: DateTimeText.nullable(),
  /** `ReportPDFUrl` is null while the attempt is In Progress. */
  Status: z.string().min(1),
  PerformanceCategory: z.string().nullable(),
});
export type CallbackV3 = z.infer<typeof CallbackV3>;
