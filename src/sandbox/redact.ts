// Request bodies go into the request log; anything that looks like a credential is replaced.
const SECRET_KEY = /key|secret|token|password|authorization/i;

export function redactBody(body: unknown, depth = 0): unknown {
  if (depth > 8 || body === null || typeof body !== 'object') return body;
  if (Array.isArray(body)) return body.map((v) => redactBody(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) out[k] = SECRET_KEY.test(k) ? '[redacted]' : redactBody(v, depth + 1);
  return out;
}
