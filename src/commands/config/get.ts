import { defineCommand, arg } from '../../cli/command.js';
import { NotFoundError } from '../../errors.js';
import { configKey, shownValue } from './shared/keys.js';

export default defineCommand({
  name: 'get',
  args: {
    key: arg(() => configKey),
  },
  description: 'Print one setting of the profile (the API key is shown masked)',
  examples: ['assess config get base-url', 'assess config get timeout --profile staging'],
  async run(ctx, { key }) {
    const v = shownValue(await (await ctx.config()).profile(ctx.globals.profile), key);
    if (v === undefined) throw new NotFoundError(`${key} is not set in profile '${ctx.globals.profile}'`, `set it with 'assess config set ${key} VALUE'`);
    ctx.io.stdout.write(`${v}\n`);
  },
});
