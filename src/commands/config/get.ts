import { defineCommand, arg } from '../../cli/command.js';
import { NotFoundError } from '../../errors.js';
import { Printer } from '../../output/printer.js';
import { configKey, SETTING_COLUMNS, SETTING_FIELDS, settingRow } from './shared/keys.js';

export default defineCommand({
  name: 'get',
  args: {
    key: arg(() => configKey),
  },
  description: 'Print one setting of the profile (the API key is shown masked); --json prints it as a config list row',
  examples: [
    'assess config get base-url',
    'assess config get timeout --profile staging',
    'assess config get base-url --json',
  ],
  jsonFields: SETTING_FIELDS,
  async run(ctx, { key }) {
    const row = settingRow(ctx.globals.profile, await (await ctx.config()).profile(ctx.globals.profile), key);
    if (row.value === null)
      throw new NotFoundError(
        `${key} is not set in profile '${ctx.globals.profile}'`,
        `set it with 'assess config set ${key} VALUE'`,
      );
    const { output, query } = ctx.globals;
    // the value alone for people and scripts ($(assess config get base-url)); an object where one was asked for
    if (query || output === 'json' || output === 'ndjson' || output === 'csv')
      await new Printer(ctx).object(
        row,
        { fields: [{ key: 'profile', header: 'Profile' }, ...SETTING_COLUMNS] },
        SETTING_FIELDS,
      );
    else ctx.io.stdout.write(`${row.value}\n`);
  },
});
