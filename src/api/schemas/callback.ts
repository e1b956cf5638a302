// Completion notifications (callbacks) the service POSTs to an invitation's callback URL.
// The sandbox builds its bodies from these types; `assess callbacks listen` validates what it
// receives with them. Fields are PascalCase, as the service sends them (GUIDE: v3 fields; spec
// Events: v2 fields). Reading is lenient: extra fields pass through, ids may arrive as strings.
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

/** What a receiver accepts: a v3 body, or a v2 body (which has no Status). */
export const CallbackNotification = z.union([CallbackV3, CallbackV2]);
export type CallbackNotification = z.infer<typeof CallbackNotification>;

export type ParsedCallback = { ok: true; version: 'v3' | 'v2'; value: CallbackNotification } | { ok: false; errors: string[] };

/** Validates a received body: v3 when it carries `Status`, v2 otherwise; readable errors. */
export function parseCallback(body: unknown): ParsedCallback {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return { ok: false, errors: ['body must be a JSON object'] };
  const version = 'Status' in body ? 'v3' : 'v2';
  const r = (version === 'v3' ? CallbackV3 : CallbackV2).safeParse(body);
  if (r.success) return { ok: true, version, value: r.data };
  return {
    ok: false,
    errors: r.error.issues.map((i) => {
      const where = i.path.join('.');
      const missing = i.code === 'invalid_type' && (body as Record<string, unknown>)[String(i.path[0])] === undefined;
      return missing ? `${where} is required` : `${where || 'body'}: ${i.message}`;
    }),
  };
}
