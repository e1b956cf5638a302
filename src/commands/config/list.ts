import { fieldsOf } from '../../cli/json-fields.js';
import { defineCommand } from '../../cli/command.js';
import { Printer } from '../../output/printer.js';
import { CONFIG_KEYS, type ConfigKey } from '../../config/keys.js';
import { KEY_NAMES, shownValue } from './shared/keys.js';

/** One row per setting of the profile. */
const COLUMNS = [
  { key: 'key', header: 'Key', priority: 1 },
  { key: 'value', header: 'Value', priority: 2 },
  { key: 'description', header: 'Description', priority: 3 },
] as const;
const FIELDS = fieldsOf(['profile'], COLUMNS);

export default defineCommand({
  name: 'list',
  description: 'List the settings of the profile (the API key is shown masked)',
  examples: ['assess config list', 'assess config list --profile staging --json'],
  jsonFields: FIELDS,
  async run(ctx) {
    const store = await ctx.config();
    const p = await store.profile(ctx.globals.profile);
    const rows = KEY_NAMES.map((key) => ({
      profile: ctx.globals.profile,
      key,
      value: shownValue(p, key) ?? null,
      description: key === 'api-key' ? 'API key (set with auth login)' : CONFIG_KEYS[key as ConfigKey].describe,
    }));
    await new Printer(ctx).list(rows, {
      columns: COLUMNS,
      fields: FIELDS,
    });
  },
});
