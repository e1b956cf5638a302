// Request bodies go into the request log: anything that looks like a credential is replaced,
// and large bodies are summarised (the log is kept in memory and in the state file).
const SECRET_KEY = /key|secret|token|password|authorization/i;
const MAX_LOGGED_BODY = 16 * 1024;

export function redactBody(body: unknown, depth = 0): unknown {
  if (depth > 8 || body === null || typeof body !== 'object') return body;
  if (Array.isArray(body)) return body.map((v) => redactBody(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) {
    if (k === '__proto__') continue; // JSON.parse makes it an own key; assigning it would set a prototype
    out[k] = SECRET_KEY.test(k) ? '[redacted]' : redactBody(v, depth + 1);
  }
  return out;
}

/** What the request log keeps of a body: redacted, or a note of its size when over 16 kB. */
export function bodyForLog(body: unknown): unknown {
  if (body === undefined || body === null || typeof body !== 'object') return body;
  const redacted = redactBody(body);
  const size = JSON.stringify(redacted).length;
  return size > MAX_LOGGED_BODY ? { '[body omitted]': `${size} characters` } : redacted;
}
