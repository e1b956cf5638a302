// The one id rule of machine output, so that a script reads every id alike: an id is a JSON
// number while it is exact (up to 2^53 - 1), else a string of its digits, whichever command
// printed it and however the service sent it (a number, or digits in a string, as the vendor's
// samples do). Applied by the printer to --json, --ndjson, --csv and --query, and to the bulk
// results files.

/**
 * A field that holds an id (or a list of ids): `id`, `testId`, `testInvitationId`, `sectionID`, `testinvitationIds`.
 */
const ID_KEY = /(^id$|Id$|ID$|Ids$|IDs$)/;
const DIGITS = /^(0|[1-9]\d*)$/;

/** One id value: digits that are exact as a number become that number; anything else is kept. */
export function idValue(v: unknown): unknown {
  if (typeof v === 'string' && DIGITS.test(v)) {
    const n = Number(v);
    return Number.isSafeInteger(n) ? n : v;
  }
  if (Array.isArray(v)) return v.map(idValue);
  return v;
}

/** `v` with every id field (at any depth) under the rule; objects are copied only where something changes. */
export function withIdRule<T>(v: T): T {
  return walk(v) as T;
}

function walk(v: unknown): unknown {
  if (Array.isArray(v)) {
    let out: unknown[] | undefined;
    v.forEach((x, i) => {
      const y = walk(x);
      if (y !== x) (out ??= [...v])[i] = y;
    });
    return out ?? v;
  }
  if (!v || typeof v !== 'object') return v;
  const src = v as Record<string, unknown>;
  let out: Record<string, unknown> | undefined;
  for (const k of Object.keys(src)) {
    const x = src[k];
    const y = ID_KEY.test(k) ? idValue(x) : walk(x);
    if (y !== x) (out ??= { ...src })[k] = y;
  }
  return out ?? v;
}
