import { defineCommand } from '../../cli/command.js';
import { Printer } from '../../output/printer.js';
import { KEY_NAMES, SETTING_COLUMNS, SETTING_FIELDS, settingRow } from './shared/keys.js';

export default defineCommand({
  name: 'list',
  description: 'List the settings of the profile (the API key is shown masked)',
  examples: ['assess config list', 'assess config list --profile staging --json'],
  jsonFields: SETTING_FIELDS,
  async run(ctx) {
    const store = await ctx.config();
    const p = await store.profile(ctx.globals.profile);
    // one row per setting of the profile
    const rows = KEY_NAMES.map((key) => settingRow(ctx.globals.profile, p, key));
    await new Printer(ctx).list(rows, {
      columns: SETTING_COLUMNS,
      fields: SETTING_FIELDS,
    });
  },
});
