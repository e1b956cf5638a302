// Where requests go: the v3 base URL from ASSESS_BASE_URL or the profile, validated like `config
// set base-url`, with a trailing /v3 (or /v2/org for v2) taken off — the CLI adds the version to
// every path itself, and `…/v3/v3/tests → 404` sent people looking for a wrong id. The v2 base
// follows the v3 base unless it is set on its own. There is no built-in production address:
// with none configured the CLI says how to set one (exit 3).
import { maskUrlCredentials, maskUserinfoLoosely } from '../api/redact.js';
import { AuthError, UsageError } from '../errors.js';
import { urlTextProblem } from '../util/url-text.js';

export interface BaseUrls {
  baseUrl: string;
  baseUrlV2: string;
  /** Where each came from, for hints: 'ASSESS_BASE_URL', "config base-url (profile 'x')". */
  baseUrlFrom: string;
  baseUrlV2From: string;
  /** Said once on stderr (e.g. a trailing /v3 was removed). */
  notices: string[];
}

interface Source {
  value: string | undefined;
  /** How the user set it, for messages: 'ASSESS_BASE_URL', "config base-url (profile 'x')". */
  name: string;
}

const VERSION_SUFFIX = { v3: /\/v3\/?$/i, v2: /\/v2(\/org)?\/?$/i };

/** Checks and normalises one base URL; a UsageError names where it came from and the fix. */
export function normaliseBaseUrl(src: Source, api: 'v3' | 'v2', notices: string[]): string {
  const raw = src.value!.trim();
  if (!/^https?:\/\//i.test(raw) || !URL.canParse(raw)) {
    // a URL no parser takes may still carry a password: never echoed
    const shown = maskUserinfoLoosely(raw);
    const guess = /^[\w.-]+(:\d+)?(\/.*)?$/.test(raw) ? ` (did you mean http://${shown} ?)` : '';
    throw new UsageError(
      `${src.name}: '${shown}' is not an http(s) URL${guess}`,
      'use a full address, e.g. https://api.example.com or http://127.0.0.1:4010',
    );
  }
  const problem = urlTextProblem(raw);
  if (problem) throw new UsageError(`${src.name}: ${JSON.stringify(maskUrlCredentials(raw))} ${problem}`);
  // every request is this address + /v3/…: a query or fragment would end up before the path
  if (/[?#]/.test(raw))
    throw new UsageError(
      `${src.name}: '${maskUrlCredentials(raw)}' has a ${raw.includes('?') ? 'query (?…)' : 'fragment (#…)'}; a base URL is only the address the CLI adds /v3/… to`,
      `drop it, e.g. ${maskUrlCredentials(raw.replace(/[?#].*$/s, '').replace(/\/+$/, '') || 'https://api.example.com')}`,
    );
  let url = raw.replace(/\/+$/, '');
  if (VERSION_SUFFIX[api].test(url)) {
    const trimmed = url.replace(VERSION_SUFFIX[api], '');
    notices.push(
      `${src.name} ends in ${url.slice(trimmed.length)}; the version is added to every path, so using ${trimmed}`,
    );
    url = trimmed;
  }
  return url;
}

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
    `${name}: ${maskUrlCredentials(url)} is plain HTTP to another machine: the API key would cross the network unencrypted; use ${maskUrlCredentials(secure)}, or allow it with ${optIn}`,
  );
}

export const INSECURE_OPT_IN = '--insecure-http (or ASSESS_INSECURE_HTTP=1, or: assess config set insecure-http true)';

export function resolveBaseUrls(opts: {
  env: Record<string, string | undefined>;
  profileName: string;
  profile: { baseUrl?: string; baseUrlV2?: string; insecureHttp?: boolean };
  /** --insecure-http or ASSESS_INSECURE_HTTP=1 (the profile's own setting is read here). */
  insecureHttp?: boolean;
}): BaseUrls {
  const notices: string[] = [];
  const { env, profile, profileName } = opts;
  const v3: Source = env.ASSESS_BASE_URL
    ? { value: env.ASSESS_BASE_URL, name: 'ASSESS_BASE_URL' }
    : { value: profile.baseUrl, name: `config base-url (profile '${profileName}')` };
  if (!v3.value?.trim())
    throw new AuthError(
      `no base URL configured for profile '${profileName}': the CLI does not know where the service is`,
      `set it: assess auth login --base-url URL${profileName === 'default' ? '' : ` --profile ${profileName}`}, assess config set base-url URL, or ASSESS_BASE_URL (try the tool with --sandbox)`,
    );
  const insecure = opts.insecureHttp === true || profile.insecureHttp === true;
  const baseUrl = normaliseBaseUrl(v3, 'v3', notices);
  refusePlainHttp(baseUrl, v3.name, insecure);
  const v2: Source = env.ASSESS_BASE_URL_V2
    ? { value: env.ASSESS_BASE_URL_V2, name: 'ASSESS_BASE_URL_V2' }
    : { value: profile.baseUrlV2, name: `config base-url-v2 (profile '${profileName}')` };
  const baseUrlV2 = v2.value?.trim() ? normaliseBaseUrl(v2, 'v2', notices) : baseUrl;
  const baseUrlV2From = v2.value?.trim() ? v2.name : v3.name;
  refusePlainHttp(baseUrlV2, baseUrlV2From, insecure);
  return { baseUrl, baseUrlV2, baseUrlFrom: v3.name, baseUrlV2From, notices };
}
