// `assess auth list`: the profiles of the config file — base URL, masked key, which one is in use.
import { maskKey, maskUrlCredentials } from '../../api/redact.js';
import { defineCommand } from '../../cli/command.js';
import { fieldsOf } from '../../cli/json-fields.js';
import { Printer, type Column } from '../../output/printer.js';

interface ProfileRow {
  profile: string;
  current: boolean;
  baseUrl: string | null;
  key: string | null;
  api: 'v3' | 'v2';
}

const COLUMNS: Column<ProfileRow>[] = [
  { key: 'profile', header: 'Profile', priority: 1 },
  { key: 'current', header: 'In use', priority: 2, value: (r) => (r.current ? '*' : '') },
  { key: 'baseUrl', header: 'Base URL', priority: 3 },
  { key: 'key', header: 'Key', priority: 5 },
  { key: 'api', header: 'API', priority: 4 },
];

export default defineCommand({
  name: 'list',
  description: 'List the profiles: base URL, masked key, and which one this command would use',
  examples: ['assess auth list', 'assess auth list --json profile,baseUrl'],
  jsonFields: fieldsOf(COLUMNS),
  async run(ctx) {
    const profiles = await (await ctx.config()).profiles();
    const inUse = ctx.globals.profile;
    const names = Object.keys(profiles);
    if (!names.includes(inUse)) names.unshift(inUse); // the implicit default, or a profile named but not created yet
    const rows = names.map((name): ProfileRow => {
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
  },
});
