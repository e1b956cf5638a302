// The API key must never appear in output, logs or errors: every debug line and every error
// message that could carry request details goes through here.

export const MASK = '****';

export function redact(text: string, secrets: Array<string | undefined>): string {
  let out = maskUrlCredentials(text);
  for (const s of secrets) {
    if (s && s.length >= 4) out = out.split(s).join(MASK);
  }
  return out;
}

/** Shows only the last four characters: enough to tell keys apart, useless to an attacker. */
export function maskKey(key: string | undefined): string {
  if (!key) return '(none)';
  return key.length <= 8 ? MASK : `${MASK}${key.slice(-4)}`;
}

// scheme://user:password@host — the userinfo of a URL is a credential wherever it is shown.
const USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)([^/\s?#]+)@/gi; // greedy: up to the last @ of the authority

/** Masks the userinfo of every URL in the text: `https://u:p@host` → `https://****@host`. */
export function maskUrlCredentials(text: string): string {
  return text.replace(USERINFO, `$1${MASK}@`);
}
