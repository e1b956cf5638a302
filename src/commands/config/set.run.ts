// config set: checks the key and value (api-key is refused: auth login stores it), takes a
// trailing /v3 off a base URL, and stores the setting in the profile.
import type { Run } from '../../cli/command.js';
import { isPlainHttpRemote, normaliseBaseUrl, refusePlainHttp } from '../../config/base-url.js';
import { CONFIG_KEYS, type ConfigKey } from '../../config/keys.js';
import { CONFIG_VALUES } from '../../config/key-values.js';
import { UsageError } from '../../errors.js';
import type set from './set.js';
import { KEY_NAMES } from './shared/keys.js';

export const run: Run<typeof set> = async (ctx, { key, value }) => {
  if (key === 'api-key')
    throw new UsageError(
      'config set api-key: refusing a key on the command line',
      'use `assess auth login` (prompt, --key-stdin or --api-key-file)',
    );
  const spec = CONFIG_KEYS[key as ConfigKey];
  if (!spec) throw new UsageError(`<key>: unknown setting '${key}'`, `settings: ${KEY_NAMES.join(', ')}`);
  const parsed = CONFIG_VALUES[key as ConfigKey].safeParse(value);
  if (!parsed.success)
    throw new UsageError(`${key}: ${parsed.error.issues[0]?.message} (got ${JSON.stringify(value)})`);
  let stored: unknown = parsed.data;
  const store = await ctx.config();
  let optIn = false;
  if (key === 'base-url' || key === 'base-url-v2') {
    // a trailing /v3 (/v2/org) would be doubled on every path: take it off, and say so
    const notices: string[] = [];
    stored = normaliseBaseUrl({ value: String(parsed.data), name: key }, key === 'base-url' ? 'v3' : 'v2', notices);
    // plain http:// to another machine: only with the opt-in (then kept in the profile)
    refusePlainHttp(
      String(stored),
      `config set ${key}`,
      ctx.globals.insecureHttp || (await store.profile(ctx.globals.profile)).insecureHttp === true,
    );
    optIn = ctx.globals.insecureHttp && isPlainHttpRemote(String(stored));
    notices.forEach((n) => ctx.warn(n));
  }
  await store.update(ctx.globals.profile, (p) => ({
    ...p,
    [spec.prop]: stored,
    ...(optIn ? { insecureHttp: true } : {}),
  }));
  ctx.info(`Set ${key} = ${String(stored)} in profile '${ctx.globals.profile}'.`);
  if (optIn)
    ctx.warn(
      `profile '${ctx.globals.profile}' now sends the API key over plain HTTP (insecure-http true); undo: assess ` +
        `config unset insecure-http`,
    );
};
