// A 2xx body as the service's JSON: what is not (an HTML page, another content type, text that
// is not JSON) is no answer of the service's, and JSON that ends early was cut off.
import { cutOff } from './answer-cap.js';
import { UnexpectedAnswerError } from './errors.js';
import { baseUrlHint, describeNotJson, endsEarly, isJsonType } from './read/answer-kind.js';
import { parseJson } from './read/body.js';
import type { RawResponse } from './transport-spec.js';

/**
 * Empty (null), or JSON by its content type and its text. JSON that ends early was cut off (a
 * Content-Length shorter than the body).
 */
export function serviceJson(res: RawResponse, text: string): unknown {
  if (!text.trim()) return null;
  const type = header(res.headers, 'content-type') ?? '';
  if (type && !isJsonType(type)) throw notTheService(res, describeNotJson(type, text));
  const parsed = parseJson(text);
  if (parsed.ok) return parsed.value;
  if (endsEarly(text, parsed.error))
    throw cutOff(res.request, `its JSON ends early, after ${Buffer.byteLength(text)} bytes`, res.attempts);
  throw notTheService(res, type ? 'JSON that cannot be read' : describeNotJson(type, text));
}

function notTheService(res: RawResponse, got: string): UnexpectedAnswerError {
  return new UnexpectedAnswerError(
    `${res.request.method} ${pathOf(res.request.url)} was answered ` +
      `HTTP ${res.status} with ${got}, not the service's JSON`,
    res.request,
    baseUrlHint(res.request),
  );
}

const pathOf = (url: string) => (URL.canParse(url) ? new URL(url).pathname : url);

/** A header's (first) value, or null. */
export function header(h: Record<string, string | string[] | undefined>, name: string): string | null {
  const v = h[name];
  return Array.isArray(v) ? (v[0] ?? null) : (v ?? null);
}
