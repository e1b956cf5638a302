// What came back, in a few words, when a 2xx answer is not the service's JSON: "an HTML page
// ("Hotel Wi-Fi – Sign in")", "a text/plain body". Errors name it so the user sees a captive
// portal or a wrong base URL for what it is, without the page printed.
import type { RequestInfo } from '../errors.js';

/** A JSON media type: application/json, text/json, application/problem+json, application/x-json. */
export function isJsonType(contentType: string): boolean {
  return /^\s*[\w.+-]+\/([\w.+-]*[+-])?json\s*(;|$)/i.test(contentType);
}

export const looksLikeHtml = (text: string) => /^\s*<(!doctype|html|head|body|h\d|title|p|div)\b/i.test(text);

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** An HTML page's <title>, one line, at most 80 characters; undefined without one. */
export function htmlTitle(text: string): string | undefined {
  const raw = /<title[^>]*>([^<]*)<\/title>/i.exec(text.slice(0, 65536))?.[1];
  if (raw === undefined) return undefined;
  const title = raw
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
      if (e[0] !== '#') return ENTITIES[e.toLowerCase()] ?? m;
      const n = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1));
      return n > 31 && n < 0x110000 ? String.fromCodePoint(n) : m;
    })
    .replace(/\s+/g, ' ')
    .trim();
  if (!title) return undefined;
  return title.length > 80 ? `${title.slice(0, 79)}…` : title;
}

/** The media type without its parameters, lower case: `text/html`. */
export const mediaType = (contentType: string) => contentType.split(';')[0]!.trim().toLowerCase();

/** A body that is not JSON, in a few words: an HTML page (its title), a text/plain body… */
export function describeNotJson(contentType: string, text: string): string {
  if (/html/i.test(mediaType(contentType)) || looksLikeHtml(text)) {
    const title = htmlTitle(text);
    return `an HTML page${title ? ` ("${title}")` : ''}`;
  }
  if (contentType.trim()) return `a ${mediaType(contentType)} body`;
  return 'a body that is not JSON (no content type)';
}

/**
 * JSON.parse's verdict on a text that is not JSON: does it end before its JSON does (cut off: the
 * rest never came, or a Content-Length shorter than the body), or is it something else?
 */
export function endsEarly(text: string, err: unknown): boolean {
  const message = err instanceof Error ? err.message : '';
  if (/end of JSON input|Unterminated string/i.test(message)) return true;
  const at = /at position (\d+)/.exec(message);
  return at !== null && Number(at[1]) >= text.trimEnd().length;
}

/** The hint of an answer that is not the service's: the base URL it went to, and where that was set. */
export function baseUrlHint(r: RequestInfo): string {
  const base = /^(.*?)\/v[23](\/|$)/.exec(r.url)?.[1] ?? r.url;
  return (
    `the base URL ${base}${r.from ? ` (from ${r.from})` : ''} may not lead to the service: ` +
    "a captive portal, a proxy's sign-in page or a wrong address answers like this"
  );
}
