// The first steps of reading an answer: its text as JSON (long integers kept exact) and the
// `{result: X, errors: null}` envelope taken off. See policy.ts for the rest of the policy.
import { foldKey } from './policy.js';

/**
 * JSON.parse, except that integers of 16 digits or more (beyond what a double holds exactly) are
 * read as strings of digits: a 64-bit id must never be rounded. A text that is not JSON is
 * returned as the text itself.
 */
export function parseJsonLossless(text: string): unknown {
  const r = parseJson(text);
  return r.ok ? r.value : text;
}

/** parseJsonLossless, saying when the text is not JSON (the parser's error); an empty text is null. */
export function parseJson(text: string): { ok: true; value: unknown } | { ok: false; error: unknown } {
  if (!text.trim()) return { ok: true, value: null };
  try {
    return { ok: true, value: JSON.parse(/\d{16}/.test(text) ? quoteLongIntegers(text) : text) };
  } catch (error) {
    return { ok: false, error };
  }
}

/** Puts quotes around integer literals of 16+ digits outside strings. */
function quoteLongIntegers(text: string): string {
  let out = '';
  let i = 0;
  let inString = false;
  while (i < text.length) {
    const c = text[i]!;
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i] ?? '';
      else if (c === '"') inString = false;
      i++;
      continue;
    }
    if (c === '"') {
      inString = true;
      out += c;
      i++;
      continue;
    }
    if (c === '-' || (c >= '0' && c <= '9')) {
      const m = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400))!;
      const token = m[0];
      const integer = !m[1] && !m[2] && !token.startsWith('-');
      out += integer && token.length >= 16 ? `"${token}"` : token;
      i += token.length;
      continue;
    }
    out += c;
    i++;
  }
  return out;
}

export type Envelope =
  | { kind: 'plain'; body: unknown }
  /** `{result: X, errors: null | []}`: X is the answer. */
  | { kind: 'unwrapped'; body: unknown }
  /** `{result: null, errors: [..]}` with a 2xx status: the service said it failed. */
  | { kind: 'errors'; errors: string[] };

/** Keys that may sit beside `result` in an envelope without making it data. */
const META = new Set([
  'statuscode',
  'status',
  'message',
  'success',
  'requestid',
  'traceid',
  'links',
  'meta',
  'timestamp',
]);

/**
 * Takes off the v3 envelope `{result, errors}` (keys in any case). With `errors` beside it,
 * `result` is the answer whatever else is there (request ids, links); without, only when the
 * other keys are such metadata — a resource with a field named `result` is read as it is.
 */
export function unwrapEnvelope(body: unknown): Envelope {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return { kind: 'plain', body };
  const keys = Object.keys(body);
  const resultKey = keys.find((k) => foldKey(k) === 'result');
  if (resultKey === undefined) return { kind: 'plain', body };
  const errorsKey = keys.find((k) => foldKey(k) === 'errors');
  const others = keys.filter((k) => k !== resultKey && k !== errorsKey && !META.has(foldKey(k)));
  if (errorsKey === undefined && others.length) return { kind: 'plain', body };
  const o = body as Record<string, unknown>;
  const result = o[resultKey];
  const errors = errorsKey === undefined ? null : o[errorsKey];
  const messages = Array.isArray(errors)
    ? errors.map((e) => String(e))
    : typeof errors === 'string' && errors
      ? [errors]
      : [];
  if (result == null && messages.length) return { kind: 'errors', errors: messages };
  return { kind: 'unwrapped', body: result };
}
