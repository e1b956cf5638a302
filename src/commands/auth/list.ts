// `assess auth list`: the profiles, their base URLs and masked keys (./list.run.ts).
import { defineCommand } from '../../cli/command.js';
import { fieldsOf } from '../../cli/json-fields.js';
import type { Column } from '../../output/printer.js';

export interface ProfileRow {
  profile: string;
  current: boolean;
  baseUrl: string | null;
  key: string | null;
  api: 'v3' | 'v2';
}

export const COLUMNS: Column<ProfileRow>[] = [
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
  handler: () => import('./list.run.js'),
});
