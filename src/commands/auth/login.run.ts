// `assess auth login`: where the key is checked (asked for on a terminal when nothing is
// configured), the key itself (prompt, --key-stdin, --api-key-file), a check against the service
// unless --no-verify, then the key and the base URLs given are stored in the profile.
import type { InputOfCommand, Run } from '../../cli/command.js';
import { isPlainHttpRemote, normaliseBaseUrl, refusePlainHttp } from '../../config/base-url.js';
import { readKeyFile, readKeyStream } from '../../config/credentials.js';
import type { Profile } from '../../config/profile.js';
import { maskKey, maskUrlCredentials } from '../../api/redact.js';
import { DEFAULT_TRY_TIMEOUT_MS } from '../../api/transport-spec.js';
import { AuthError, UsageError } from '../../errors.js';
import { ApiError, NetworkError } from '../../api/errors.js';
import { type Context, debugSink } from '../../context.js';
import { whyNoQuestions } from '../shared/confirm.js';
import { isHttpUrl, urlTextProblem } from '../../util/url-text.js';
import type login from './login.js';

type Input = InputOfCommand<typeof login>;

/** Where the key goes: the base URLs as they will be used, and what they are called in messages. */
interface Target {
  /** The v3 base URL as given (flag, environment, profile or typed), before it is normalised. */
  given: string;
  urlName: string;
  baseUrl: string;
  baseUrlV2: string | undefined;
  insecure: boolean;
}

export const run: Run<typeof login> = async (ctx, input) => {
  const store = await ctx.config();
  const profile = ctx.globals.profile;
  const current = await store.profile(profile);
  const target = await targetOf(ctx, input, current);
  const apiKey = await obtainKey(ctx);
  const { baseUrl, baseUrlV2 } = target;
  const storeUrl = input.baseUrl !== undefined || (!ctx.env.ASSESS_BASE_URL && !current.baseUrl);
  // the opt-in is kept with a stored URL that needs it (not for one from the environment)
  const optIn =
    ctx.globals.insecureHttp &&
    ((storeUrl && isPlainHttpRemote(baseUrl)) || (baseUrlV2 !== undefined && isPlainHttpRemote(baseUrlV2)));
  const verify = input.verify && !input.skipVerify;
  if (verify) await verifyKey(ctx, input, apiKey, current, target);
  await store.update(profile, (p) => ({
    ...p,
    apiKey,
    ...(storeUrl ? { baseUrl } : {}),
    ...(baseUrlV2 ? { baseUrlV2 } : {}),
    ...(optIn ? { insecureHttp: true } : {}),
  }));
  const where = `profile '${profile}' (${store.path})`;
  const url = maskUrlCredentials(baseUrl);
  ctx.info(
    verify
      ? `Saved key ${maskKey(apiKey)} to ${where}: the service at ${url} accepted it.`
      : `Saved key ${maskKey(apiKey)} to ${where} for ${url}, unchecked (--no-verify).`,
  );
  if (optIn)
    ctx.warn(
      `profile '${profile}' now sends the API key over plain HTTP ` +
        `(insecure-http true); undo: assess config unset insecure-http`,
    );
};

/**
 * Where the key is checked (and, with --base-url, what is stored): asked for on a terminal when
 * nothing is configured, since there is no built-in production address. A plain http:// URL to
 * another machine is refused without the opt-in before the key is read or sent.
 */
async function targetOf(ctx: Context, input: Input, current: Profile): Promise<Target> {
  const notices: string[] = [];
  const given = input.baseUrl ?? (ctx.env.ASSESS_BASE_URL || current.baseUrl || (await askBaseUrl(ctx)));
  const urlName = input.baseUrl
    ? '--base-url'
    : ctx.env.ASSESS_BASE_URL && given === ctx.env.ASSESS_BASE_URL
      ? 'ASSESS_BASE_URL'
      : 'base URL';
  const baseUrl = normaliseBaseUrl({ value: given, name: urlName }, 'v3', notices);
  const baseUrlV2 = input.baseUrlV2
    ? normaliseBaseUrl({ value: input.baseUrlV2, name: '--base-url-v2' }, 'v2', notices)
    : undefined;
  const insecure = ctx.globals.insecureHttp || current.insecureHttp === true;
  refusePlainHttp(baseUrl, urlName, insecure);
  if (baseUrlV2) refusePlainHttp(baseUrlV2, '--base-url-v2', insecure);
  notices.forEach((n) => ctx.warn(n));
  return { given, urlName, baseUrl, baseUrlV2, insecure };
}

/** One small request with the key: nothing is saved when the service refuses it or cannot be reached. */
async function verifyKey(ctx: Context, input: Input, apiKey: string, current: Profile, target: Target): Promise<void> {
  const { given, urlName, baseUrl, insecure } = target;
  const profile = ctx.globals.profile;
  const { v3ClientOf } = await import('../../api/clients.js');
  const client = await v3ClientOf(
    {
      apiKey,
      profile,
      baseUrl,
      baseUrlV2: '',
      baseUrlFrom:
        urlName !== 'base URL'
          ? urlName
          : given === current.baseUrl
            ? `config base-url (profile '${profile}')`
            : 'the address typed',
      timeoutMs: ctx.globals.timeoutMs,
      tryTimeoutMs: ctx.globals.tryTimeoutMs ?? DEFAULT_TRY_TIMEOUT_MS,
      maxAttempts: 2,
      sandbox: false,
      insecureHttp: insecure,
    },
    { signal: ctx.signal, debug: debugSink(ctx), pool: ctx.keepAlive, secrets: ctx.secrets },
  );
  // Any 2xx answer of the service's means the key was accepted, whatever its body looks like
  // (one that is not the service's, a captive portal's page, fails: UnexpectedAnswerError).
  await client.listTests({ pageNo: 1, pageSize: 1 }).catch((err: unknown) => {
    if (err instanceof Error && err.name === 'UnreadableAnswerError') return;
    // nothing was saved: say what to check here, not the hints of a command run with a saved key
    if (err instanceof ApiError && err.kind === 'auth')
      throw new AuthError(
        `the service refused this key (HTTP ${err.status}` +
          `${err.messages.length ? `: ${err.messages.join('; ')}` : ''}); nothing was saved`,
        `check the key (copy it again from the service's settings) and run assess auth login again, or --no-verify ` +
          `to save it unchecked`,
      );
    if (err instanceof NetworkError && !err.timedOut)
      err.hint =
        `nothing was saved; check the address ` +
        `${input.baseUrl ? 'given with --base-url' : ctx.env.ASSESS_BASE_URL ? 'in ASSESS_BASE_URL' : 'configured'} ` +
        `(${maskUrlCredentials(baseUrl)}), your network and proxy settings, or save the key unchecked with --no-verify`;
    throw err;
  });
}

async function askBaseUrl(ctx: Context): Promise<string> {
  if (!ctx.globals.interactive)
    throw new UsageError(
      '--base-url: required: no base URL is configured for this profile',
      'e.g. assess auth login --base-url https://api.example.com (or ASSESS_BASE_URL)',
    );
  const { input } = await import('@inquirer/prompts');
  return input(
    {
      message: 'Base URL of the service (e.g. https://api.example.com)',
      validate: (v) =>
        isHttpUrl(v.trim()) ? true : (urlTextProblem(v.trim()) ?? 'an http(s) URL, e.g. https://api.example.com'),
    },
    { input: ctx.io.stdin, output: ctx.io.stderr, signal: ctx.signal },
  );
}

async function obtainKey(ctx: Context): Promise<string> {
  const g = ctx.globals;
  if (g.apiKeyFile) return readKeyFile(g.apiKeyFile, { signal: ctx.signal, warn: ctx.warn });
  if (g.keyStdin) return readKeyStream(ctx.io.stdin);
  if (!g.interactive) {
    throw new UsageError(
      `auth login: no key given and ${whyNoQuestions(ctx)}`,
      'pipe it with --key-stdin, or pass --api-key-file F',
    );
  }
  const { password } = await import('@inquirer/prompts');
  const key = await password(
    {
      message: 'API key',
      mask: '*',
      validate: (v) => (v.trim() && !/\s/.test(v.trim()) ? true : 'one line, no spaces'),
    },
    { input: ctx.io.stdin, output: ctx.io.stderr },
  );
  return key.trim();
}
