// config unset: removes one setting from the profile, which then has its default again.
import type { Run } from '../../cli/command.js';
import { CONFIG_KEYS, type ConfigKey } from '../../config/keys.js';
import type unset from './unset.js';

export const run: Run<typeof unset> = async (ctx, { key }) => {
  const prop = key === 'api-key' ? 'apiKey' : CONFIG_KEYS[key as ConfigKey].prop;
  await (
    await ctx.config()
  ).update(ctx.globals.profile, (p) => {
    const next: Record<string, unknown> = { ...p };
    delete next[prop];
    return next;
  });
  ctx.info(`Unset ${key} in profile '${ctx.globals.profile}'.`);
};
