// config get: one setting of the profile (the API key masked); exit 4 when it is not set.
import type { Run } from '../../cli/command.js';
import { NotFoundError } from '../../errors.js';
import { Printer } from '../../output/printer.js';
import type get from './get.js';
import { SETTING_COLUMNS, SETTING_FIELDS, settingRow } from './shared/keys.js';

export const run: Run<typeof get> = async (ctx, { key }) => {
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
};
