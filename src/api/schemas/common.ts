// Building blocks shared by the v3 wire schemas: identifiers, 0/1 flags, date-time formats,
// e-mail lists. Kept separate so request and response schemas speak the same vocabulary.
import * as z from 'zod/mini';
import { isEmail } from './email.js';
import { utcSeconds } from '../../util/utc-text.js';

/** Integer64 identifiers travel as JSON numbers; the sandbox only ever issues safe integers. */
export const Id = z.number().check(z.int(), z.nonnegative());
export type Id = z.infer<typeof Id>;

/** Integer64 path parameter (strings from the URL): digits only, safe integer. */
export const IdParam = z.pipe(
  z.pipe(z.string().check(z.regex(/^\d{1,16}$/, 'must be a positive integer')), z.transform(Number)),
  z.number().check(z.int(), z.positive(), z.maximum(Number.MAX_SAFE_INTEGER)),
);

/**
 * Error option for enums/literals: our message for a wrong value, but a missing value falls
 * through to the parse-level "is required".
 */
export function invalidValue(message: string) {
  return { error: (iss: { input?: unknown }) => (iss.input === undefined ? undefined : message) };
}

/** A Yes/No flag sent as an integer (the samples use 0 and 1). */
export const Flag = z.literal([0, 1], invalidValue('must be 0 or 1'));
export type Flag = z.infer<typeof Flag>;

/** `yes` / `no` (sendEmail). */
export const YesNo = z.enum(['yes', 'no'], invalidValue("must be 'yes' or 'no'"));

export const ProctoringMode = z.enum(
  ['disabled', 'image', 'video'],
  invalidValue("must be one of 'disabled', 'image', 'video'"),
);
export type ProctoringMode = z.infer<typeof ProctoringMode>;

const UTC_SECONDS = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})Z$/;

/** True when the string names a real calendar instant (rejects 2025-02-30, 25:00, …). */
export function isRealDateTime(y: number, mo: number, d: number, h = 0, mi = 0, s = 0): boolean {
  const t = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  return (
    t.getUTCFullYear() === y &&
    t.getUTCMonth() === mo - 1 &&
    t.getUTCDate() === d &&
    t.getUTCHours() === h &&
    t.getUTCMinutes() === mi &&
    t.getUTCSeconds() === s
  );
}

/**
 * A date-time string matching `pattern` (year, month, day, hour, minute, second captured) that exists on the calendar.
 */
export function realDateTime(pattern: RegExp, message: string) {
  return z.string().check(
    z.refine(
      (v) => {
        const m = pattern.exec(v);
        return !!m && isRealDateTime(+m[1], +m[2], +m[3], +m[4], +m[5], +m[6]);
      },
      { message },
    ),
  );
}

/** The spec's request date-time: UTC, `YYYY-MM-ddTHH:mm:ssZ`, nothing else. */
export const UtcDateTime = realDateTime(UTC_SECONDS, 'must be a UTC date-time in the format YYYY-MM-ddTHH:mm:ssZ');

/** Formats a millisecond timestamp the way the spec writes request date-times. */
export function toUtcSeconds(ms: number): string {
  return utcSeconds(ms);
}

export { isEmail };

/** Comma-separated e-mail addresses (spaces around commas tolerated). */
export const EmailList = z.string().check(
  z.superRefine((v, ctx) => {
    const parts = v.split(',').map((p) => p.trim());
    const bad = parts.filter((p) => !isEmail(p));
    if (bad.length)
      ctx.addIssue({
        code: 'custom',
        message:
          `must be comma-separated e-mail addresses; not an e-mail address: ` +
          `${bad.map((b) => `'${b}'`).join(', ')}`,
      });
  }),
);

/** Time zone id (Integer64 on the wire; the sandbox stores it, it does not interpret it). */
export const TimeZoneId = z.number().check(z.int(), z.nonnegative());

/** Reads `{result:{…}}` as `{…}` (the service sometimes wraps bodies). */
export function unwrapResult(v: unknown): unknown {
  if (v && typeof v === 'object' && 'result' in v) {
    const inner = (v as { result: unknown }).result;
    if (inner && typeof inner === 'object' && !Array.isArray(inner)) return inner;
  }
  return v;
}

/** The schemas that read `sectionID` as `sectionId` (the OpenAPI document shows both spellings). */
export const READS_SECTION_ID = z.registry<{ spellings: readonly string[] }>();

/** An object whose `sectionID` (the samples' spelling) is read as `sectionId`. */
export function withSectionId<S extends z.core.$ZodType>(schema: S) {
  const piped = z.pipe(z.transform(normaliseSectionId), schema);
  const registered: z.core.$ZodType = piped;
  READS_SECTION_ID.add(registered, { spellings: ['sectionId', 'sectionID'] });
  return piped;
}

/** The samples spell `sectionID`; read it as `sectionId`. */
export function normaliseSectionId(v: unknown): unknown {
  if (v && typeof v === 'object' && !('sectionId' in v) && 'sectionID' in v) {
    const { sectionID, ...rest } = v as Record<string, unknown>;
    return { ...rest, sectionId: sectionID };
  }
  return v;
}
