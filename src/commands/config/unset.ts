import { defineCommand, arg } from '../../cli/command.js';
import { CONFIG_KEYS, type ConfigKey } from '../../config/keys.js';
import { configKey } from './shared/keys.js';

export default defineCommand({
  name: 'unset',
  args: {
    key: arg(() => configKey),
  },
  description: 'Remove one setting from the profile (back to its default)',
  examples: ['assess config unset timeout', 'assess config unset api-key --profile old'],
  async run(ctx, { key }) {
    const prop = key === 'api-key' ? 'apiKey' : CONFIG_KEYS[key as ConfigKey].prop;
    await (
      await ctx.config()
    ).update(ctx.globals.profile, (p) => {
      const next: Record<string, unknown> = { ...p };
      delete next[prop];
      return next;
    });
    ctx.info(`Unset ${key} in profile '${ctx.globals.profile}'.`);
  },
});
