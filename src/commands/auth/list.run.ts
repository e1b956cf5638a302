// `assess auth list`: the profiles of the config file — base URL, masked key, which one is in use.
import { maskKey, maskUrlCredentials } from '../../api/redact.js';
import type { Run } from '../../cli/command.js';
import { shownNames } from '../../config/store.js';
import { Printer } from '../../output/printer.js';
import type list from './list.js';
import { COLUMNS, type ProfileRow } from './list.js';

export const run: Run<typeof list> = async (ctx) => {
  const profiles = await (await ctx.config()).profiles();
  const inUse = ctx.globals.profile;
  // with the implicit default, or a profile named but not created yet
  const rows = shownNames(profiles, inUse).map((name): ProfileRow => {
    const p = profiles[name] ?? {};
    return {
      profile: name,
      current: name === inUse,
      baseUrl: p.baseUrl ? maskUrlCredentials(p.baseUrl) : null,
      key: p.apiKey ? maskKey(p.apiKey) : null,
      api: p.api ?? 'v3',
    };
  });
  await new Printer(ctx).list(rows, { columns: COLUMNS, fields: COLUMNS.map((c) => c.key) });
};
