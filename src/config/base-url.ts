// Where requests go: the v3 base URL from ASSESS_BASE_URL or the profile, validated like `config
// set base-url`, with a trailing /v3 (or /v2/org for v2) taken off — the CLI adds the version to
// every path itself, and `…/v3/v3/tests → 404` sent people looking for a wrong id. The v2 base
// follows the v3 base unless it is set on its own. There is no built-in production address:
// with none configured the CLI says how to set one (exit 3).
import { refusePlainHttp } from '../api/plain-http.js';
import { maskUrlCredentials, maskUserinfoLoosely } from '../api/redact.js';
import { AuthError, UsageError } from '../errors.js';
import { urlTextProblem } from '../util/url-text.js';

export {
  INSECURE_OPT_IN,
  isLoopbackAddress,
  isLoopbackHost,
  isPlainHttpRemote,
  refusePlainHttp,
} from '../api/plain-http.js';

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
      `${src.name}: '${maskUrlCredentials(raw)}' has a ${raw.includes('?') ? 'query (?…)' : 'fragment (#…)'}; a base ` +
        `URL is only the address the CLI adds /v3/… to`,
      `drop it, e.g. ${maskUrlCredentials(withoutQuery(raw))}`,
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
      `set it: assess auth login --base-url ` +
        `URL${profileName === 'default' ? '' : ` --profile ${profileName}`}, assess config set base-url URL, or ` +
        `ASSESS_BASE_URL (try the tool with --sandbox)`,
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

/** The address without its query or fragment and trailing slashes: what to give instead. */
function withoutQuery(raw: string): string {
  return raw.replace(/[?#].*$/s, '').replace(/\/+$/, '') || 'https://api.example.com';
}
