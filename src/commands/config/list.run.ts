// config list: the settings of the profile, one row per setting (the API key masked).
import type { Run } from '../../cli/command.js';
import { Printer } from '../../output/printer.js';
import type list from './list.js';
import { KEY_NAMES, SETTING_COLUMNS, SETTING_FIELDS, settingRow } from './shared/keys.js';

export const run: Run<typeof list> = async (ctx) => {
  const store = await ctx.config();
  const p = await store.profile(ctx.globals.profile);
  const rows = KEY_NAMES.map((key) => settingRow(ctx.globals.profile, p, key));
  await new Printer(ctx).list(rows, {
    columns: SETTING_COLUMNS,
    fields: SETTING_FIELDS,
  });
};
