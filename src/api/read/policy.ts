// The tolerant-reader policy: how every answer of the service (v3 and v2) is read. One place, so
// no command has to know that the service spells `status` as `Status`, sends ids as strings,
// wraps bodies in `{result, errors: null}` or answers 204 with no body (docs/assumptions.md,
// "Reading the service's answers").
//
// The building blocks below make zod schemas that
//   - let unknown fields pass through (loose objects),
//   - read field names case-, space- and underscore-insensitively onto the spelling the CLI uses
//     (`Status` → `status`, `sectionID` → `sectionId`, `callbackURL` → `callbackUrl`),
//   - accept `null` wherever a value is not needed to act (read as absent),
//   - accept ids as numbers or numeric strings, numbers as numeric strings,
//   - compare enum-like values case- and space-insensitively, with known synonyms.
import * as z from 'zod/mini';

/** How two spellings of a field name are compared: `Status` = `status`, `section_id` = `sectionId`. */
export const foldKey = (k: string) => k.toLowerCase().replace(/[\s_-]/g, '');

/**
 * Renames the keys of `v` that match one of `keys` loosely onto that spelling. An exact spelling
 * present in the body wins; the other spelling is then kept as an extra field.
 */
export function canonicalKeys(v: unknown, keys: readonly string[]): unknown {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
  const src = v as Record<string, unknown>;
  const want = new Map(keys.map((k) => [foldKey(k), k]));
  let out: Record<string, unknown> | undefined;
  for (const k of Object.keys(src)) {
    const canon = want.get(foldKey(k));
    if (canon === undefined || canon === k || canon in src) continue;
    out ??= { ...src };
    out[canon] = src[k];
    delete out[k];
  }
  return out ?? v;
}

/** A bare array where an object holding it was expected: `[…]` read as `{key: […]}`. */
export const arrayAs = (key: string) => (v: unknown) => (Array.isArray(v) ? { [key]: v } : v);

/** The field names of each object the reader reads, in their declared order (`--json a,b`, `--help`). */
export const READ_FIELDS = z.registry<{ fields: readonly string[] }>();

/** An object read loosely: canonical key spellings, unknown keys kept. */
export function obj<S extends z.core.$ZodShape>(shape: S) {
  const keys = Object.keys(shape);
  return z
    .pipe(
      z.transform((v) => canonicalKeys(v, keys)),
      z.looseObject(shape),
    )
    .register(READ_FIELDS, { fields: keys });
}

/** A nested object that may be absent or null (null is kept: the output shows what was sent). */
export function optObj<S extends z.core.$ZodShape>(shape: S) {
  return z.nullish(obj(shape));
}

/**
 * An identifier: a JSON number or a string of digits. Read as a number when it is exactly
 * representable (the spec's Integer64 values as JSON numbers), else kept as its digits, so a
 * 64-bit id is never rounded (see parseJsonLossless, which keeps long integers as text).
 */
export const id = z.pipe(
  z.union([
    z.number().check(z.int(), z.nonnegative()),
    z.string().check(z.trim(), z.regex(/^\d{1,20}$/, 'must be an id (digits)')),
  ]),
  z.transform((v): IdValue => (typeof v === 'number' ? v : idFromDigits(v))),
);
export type IdValue = number | string;

export function idFromDigits(digits: string): IdValue {
  const n = Number(digits);
  return Number.isSafeInteger(n) ? n : digits.replace(/^0+(?=\d)/, '');
}

/** An optional id ('' → absent; null kept). */
export const optId = z.pipe(
  z.transform((v) => (v === '' ? undefined : v)),
  z.nullish(id),
);

/** A number, also when sent as a numeric string ('' → absent; null kept). */
export const optNum = z.pipe(
  z.transform((v) => (v === '' ? undefined : typeof v === 'string' && Number.isFinite(Number(v)) ? Number(v) : v)),
  z.nullish(z.number()),
);

/** A number that is needed to act. */
export const num = z.pipe(
  z.transform((v) => (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v)),
  z.number(),
);

/** Text; numbers and booleans are read as their text; null kept. */
export const optText = z.pipe(
  z.transform((v) => (typeof v === 'number' || typeof v === 'boolean' ? String(v) : v)),
  z.nullish(z.string()),
);

/** Text that is needed to act. */
export const text = z.pipe(
  z.transform((v) => (typeof v === 'number' ? String(v) : v)),
  z.string(),
);

/** A boolean, also as 0/1 or 'true'/'false'; null kept. */
export const optBool = z.pipe(
  z.transform((v) => {
    if (v === 0 || v === 1) return v === 1;
    if (typeof v === 'string' && /^(true|false)$/i.test(v.trim())) return v.trim().toLowerCase() === 'true';
    return v;
  }),
  z.nullish(z.boolean()),
);

/** A list that may be absent or null. Items are read with `item`. */
export function optList<T extends z.core.$ZodType>(item: T) {
  return z.nullish(z.array(item));
}

/** A list that is needed (the rows of a listing); null → empty. */
export function list<T extends z.core.$ZodType>(item: T) {
  return z.pipe(
    z.transform((v) => (v === null ? [] : v)),
    z.array(item),
  );
}

/**
 * An enum-like value: matched case- and space-insensitively against `vocabulary` (canonical
 * spelling → its synonyms) and read as the canonical spelling; an unknown value is kept as sent
 * (the service may add states), so reading never fails on a new word.
 */
export function enumText(vocabulary: Record<string, readonly string[]>) {
  const lookup = new Map<string, string>();
  for (const [canon, synonyms] of Object.entries(vocabulary))
    for (const s of [canon, ...synonyms]) lookup.set(foldKey(s), canon);
  const read = (v: unknown) =>
    typeof v === 'string' ? (lookup.get(foldKey(v)) ?? v.trim()) : typeof v === 'number' ? String(v) : v;
  let schema: ReturnType<typeof enumSchema> | undefined;
  return {
    read,
    get schema() {
      return (schema ??= enumSchema(read));
    },
  };
}

const enumSchema = (read: (v: unknown) => unknown) => z.pipe(z.transform(read), z.nullish(z.string()));

/** Invitation / attempt statuses, read as the v3 spec spells them. */
export const INVITATION_STATUSES = {
  Pending: ['not started', 'notstarted', 'invited'],
  'In Progress': ['inprogress', 'in_progress', 'started'],
  Complete: ['completed'],
  'Test Left': ['testleft', 'left'],
  Terminated: [],
  Cancelled: ['canceled'],
  Expired: [],
  Reset: [],
} as const;
export const invitationStatus = enumText(INVITATION_STATUSES);

/** v2 spells the finished state `Completed` and the running one `In progress`. */
export const v2TestStatus = enumText({
  Pending: ['not started'],
  'In progress': ['inprogress', 'in_progress'],
  Completed: ['complete'],
  Reset: [],
  Cancelled: ['canceled'],
  Expired: [],
  'Test Left': ['testleft'],
  Terminated: [],
});
export const v2ReportStatus = enumText({ Pending: [], 'In progress': ['inprogress'], Generated: [] });

export const testStatus = enumText({ Active: [], Inactive: [] });
export const linkStatus = enumText({ active: ['enabled'], inactive: ['disabled'] });
export const invitationType = enumText({ email: ['emailonly', 'email only'], open: [] });
export const proctoringMode = enumText({ disabled: ['none', 'off'], image: [], video: [] });
export const scheduleType = enumText({
  validityindays: ['validity in days', 'validity'],
  timebound: ['time bound'],
  slotwise: ['slot wise'],
});
export const attemptInvitationType = enumText({ api: [], app: [] });

/** A terminal state an attempt can end in (statuses compared through the vocabulary). */
export function sameStatus(a: unknown, b: string): boolean {
  return invitationStatus.read(a) === invitationStatus.read(b);
}
