// Plain http:// to another machine would carry the API key in clear text: what counts as this
// machine (loopback), and the refusal of a base URL that is not it. In src/api, since the
// transport refuses such a URL too (the last line of defence) and the keep-alive pool checks
// what `localhost` resolved to.
import { UsageError } from '../errors.js';
import { maskUrlCredentials } from './redact.js';

/**
 * 127.0.0.0/8, ::1 (also IPv4-mapped) and `localhost` exactly: traffic that never leaves this
 * machine. Not `localhost.` (a fully qualified name, which glibc sends to DNS), nor
 * `x.localhost`; and `localhost` itself is checked again when connecting: the address it resolved
 * to must be loopback (keep-alive.ts).
 */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || isLoopbackAddress(h);
}

/** A literal loopback address: 127.0.0.0/8 or ::1, also IPv4-mapped (::ffff:127.0.0.1, as URL spells it or not). */
export function isLoopbackAddress(address: string): boolean {
  const h = address.toLowerCase();
  if (h === '::1') return true; // URL and sockets both spell it so
  if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h)) return true;
  return /^::ffff:(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|7f[0-9a-f]{2}:[0-9a-f]{1,4})$/.test(h);
}

/** An http:// URL to a host that is not this machine: a key sent there crosses the network in clear text. */
export function isPlainHttpRemote(url: string): boolean {
  if (!URL.canParse(url)) return false;
  const u = new URL(url);
  return u.protocol === 'http:' && !isLoopbackHost(u.hostname);
}

/**
 * Refuses (exit 2, one line with the fix) a base URL that would send the API key unencrypted to
 * another machine — through a proxy too — unless the user opted in (`--insecure-http`, the
 * profile's `insecure-http` setting, ASSESS_INSECURE_HTTP=1). Loopback (the sandbox) is fine.
 */
export function refusePlainHttp(url: string, name: string, allowed: boolean, optIn = INSECURE_OPT_IN): void {
  if (allowed || !isPlainHttpRemote(url)) return;
  const secure = url.replace(/^http:/i, 'https:');
  throw new UsageError(
    `${name}: ${maskUrlCredentials(url)} is plain HTTP to another machine: the API key would cross the network ` +
      `unencrypted; use ${maskUrlCredentials(secure)}, or allow it with ${optIn}`,
  );
}

export const INSECURE_OPT_IN = '--insecure-http (or ASSESS_INSECURE_HTTP=1, or: assess config set insecure-http true)';
