// Reading a completion notification (callback) the way every answer of the service is read: the
// tolerant policy of policy.ts. The vendor documents several shapes (the v2 six-field object, the
// v3 object with Status, AttemptedOnUtc and PerformanceCategory, an older page with BaseImgUrl and
// no Status); names may come in any casing, numbers as strings, optional fields null or missing,
// dates in either documented form. Only a body that is not an object, or one without a readable
// TestInvitationId, cannot be understood; it is still stored (the listener stores first) and listed
// with the reason. `CallbackWire` is also the body schema of the OpenAPI document's `webhooks`.
import * as z from 'zod/mini';
import { canonicalKeys, idFromDigits, invitationStatus } from './policy.js';

/** The vendor's own form of AttemptedOn, in the account's time zone: `09-Oct-2020 06:51 PM`. */
export const VENDOR_DATE = /^\s*(\d{1,2})-([A-Za-z]{3})-(\d{4})\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AaPp][Mm])\s*$/;
/** ISO 8601: `2020-10-09T13:21:53` (AttemptedOnUtc, no zone: UTC), with `Z`, an offset or fractions. */
export const ISO_DATE =
  /^\s*(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?\s*([Zz]|[+-]\d{2}:?\d{2})?\s*$/;

const NUMERIC = /^\s*-?\d+(\.\d+)?\s*$/;
const DIGITS = /^\s*\d{1,20}\s*$/;

// Each call builds fresh schemas: register() adds the schema itself to the registry (no copy).
const numberLike = () =>
  z
    .nullish(z.union([z.number(), z.string().check(z.regex(NUMERIC))]))
    .register(z.globalRegistry, { description: 'a number; also read when sent as a numeric string' });
const textLike = (description: string) => z.nullish(z.string()).register(z.globalRegistry, { description });
const dateLike = (description: string) =>
  z
    .nullish(
      z.union([
        z.string().check(z.regex(ISO_DATE)).register(z.globalRegistry, {
          description: 'ISO 8601, e.g. 2020-10-09T13:21:53 (no zone: UTC) or 2020-10-09T13:21:53Z',
        }),
        z.string().check(z.regex(VENDOR_DATE)).register(z.globalRegistry, {
          description: "the vendor's form dd-MMM-yyyy hh:mm AM/PM, e.g. 09-Oct-2020 06:51 PM",
        }),
      ]),
    )
    .register(z.globalRegistry, { description });

/** The notification as it travels (field names as the vendor spells them; other spellings are read too). */
export const CallbackWire = z
  .looseObject({
    TestInvitationId: z
      .union([z.number().check(z.int(), z.nonnegative()), z.string().check(z.regex(DIGITS))])
      .register(z.globalRegistry, { description: 'the invitation (Integer64; digits in a string are read too)' }),
    CandidateEmailId: textLike("the candidate's e-mail"),
    AttemptedOn: dateLike(
      "when the attempt started, in the account's time zone: `09-Oct-2020 06:51 PM` (ISO 8601 is read too)",
    ),
    AttemptedOnUtc: dateLike('the same moment in UTC, ISO 8601 without a zone: `2020-10-09T13:21:53` (v3)'),
    TotalScore: numberLike(),
    CandidateScore: numberLike(),
    ReportPDFUrl: textLike('the report PDF; null while the attempt is In Progress'),
    Status: textLike('v3: In Progress, Complete, Test Left or Terminated; absent in the v2 object'),
    PerformanceCategory: textLike('v3: the performance band, when the test defines them'),
    BaseImgUrl: textLike('an older documented shape carries it'),
  })
  .register(z.globalRegistry, {
    title: 'CompletionNotification',
    description:
      "POSTed as JSON to the invitation's callback URL when the attempt goes In Progress and at its terminal state. " +
      'Unsigned from the service; `assess callbacks listen --forward-to … --sign` adds Standard Webhooks headers.',
  });

export const CALLBACK_WIRE_FIELDS = Object.keys(CallbackWire.shape) as Array<keyof typeof CallbackWire.shape>;

export interface ReadCallback {
  /** False when the body cannot be understood as a notification (`problem` says why). */
  ok: boolean;
  problem?: string;
  /** v3 when it carries a Status, v2 otherwise. */
  version: 'v3' | 'v2';
  invitationId: string | null;
  /** Status in the v3 spelling (`completed` → `Complete`), or null. */
  status: string | null;
  /** Field-level oddities read past (a score that is not a number, a date in no known form). */
  notes: string[];
  /** The body with the vendor's field names; values as sent, except ids, numbers and dates read. */
  value: Record<string, unknown>;
  /** AttemptedOnUtc (or an ISO AttemptedOn) as `YYYY-MM-DDTHH:mm:ssZ`, when readable. */
  attemptedAtUtc: string | null;
}

/** Reads one parsed JSON body; never throws. */
export function readCallback(body: unknown): ReadCallback {
  const none = { version: 'v2' as const, invitationId: null, status: null, notes: [], attemptedAtUtc: null };
  if (!body || typeof body !== 'object' || Array.isArray(body))
    return {
      ok: false,
      problem:
        `the body is ${Array.isArray(body) ? 'a list' : body === null ? 'null' : `a ${typeof body}`}, ` +
        `not a JSON object`,
      value: {},
      ...none,
    };
  const src = canonicalKeys(body, CALLBACK_WIRE_FIELDS) as Record<string, unknown>;
  const value: Record<string, unknown> = { ...src };
  const notes: string[] = [];
  for (const key of CALLBACK_WIRE_FIELDS) {
    if (!(key in src) || key === 'TestInvitationId') continue;
    const r = CallbackWire.shape[key].safeParse(src[key]);
    if (!r.success)
      notes.push(`${key} ${JSON.stringify(src[key])?.slice(0, 60)} is not ${expectedForm(key)}; kept as sent`);
    else if (key.includes('Score') && typeof src[key] === 'string') value[key] = Number(src[key]);
  }
  const version = src.Status != null && src.Status !== '' ? 'v3' : 'v2';
  const status = typeof src.Status === 'string' && src.Status.trim() ? String(invitationStatus.read(src.Status)) : null;
  const attemptedAtUtc = isoUtc(src.AttemptedOnUtc) ?? isoUtc(src.AttemptedOn);
  const rawId = src.TestInvitationId;
  const idOk = CallbackWire.shape.TestInvitationId.safeParse(rawId).success;
  if (!idOk) {
    const problem =
      rawId === undefined || rawId === null
        ? 'TestInvitationId is missing'
        : `TestInvitationId ${JSON.stringify(rawId).slice(0, 40)} is not an id`;
    return { ok: false, problem, version, invitationId: null, status, notes, value, attemptedAtUtc };
  }
  const invitationId = String(typeof rawId === 'number' ? rawId : idFromDigits(String(rawId).trim()));
  value.TestInvitationId = typeof rawId === 'number' ? rawId : idFromDigits(String(rawId).trim());
  if (status !== null) value.Status = status;
  return { ok: true, version, invitationId, status, notes, value, attemptedAtUtc };
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** An ISO date-time (no zone = UTC) as `YYYY-MM-DDTHH:mm:ssZ`; null for anything else. */
export function isoUtc(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  const m = ISO_DATE.exec(v);
  if (!m) return null;
  const zone =
    !m[7] || m[7].toUpperCase() === 'Z' ? 'Z' : m[7].includes(':') ? m[7] : `${m[7].slice(0, 3)}:${m[7].slice(3)}`;
  const t = Date.parse(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6] ?? '00'}${zone}`);
  return Number.isNaN(t) ? null : new Date(t).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** `09-Oct-2020 06:51 PM` → `2020-10-09T18:51:00` (a wall-clock time: the account's zone is not sent). */
export function vendorWallClock(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  const m = VENDOR_DATE.exec(v);
  if (!m) return null;
  const month = MONTHS.indexOf(m[2]!.toLowerCase());
  let hour = Number(m[4]);
  if (month < 0 || hour < 1 || hour > 12) return null;
  if (/pm/i.test(m[7]!) && hour !== 12) hour += 12;
  if (/am/i.test(m[7]!) && hour === 12) hour = 0;
  const p = (n: number | string) => String(n).padStart(2, '0');
  return `${m[3]}-${p(month + 1)}-${p(m[1]!)}T${p(hour)}:${m[5]}:${p(m[6] ?? '00')}`;
}

/** What a callback field was expected to hold, for the note on one that did not. */
function expectedForm(key: string): string {
  return key.includes('Score') ? 'a number' : key.startsWith('Attempted') ? 'a documented date form' : 'text';
}
