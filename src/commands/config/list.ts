// config list: every setting of the profile, one row each (./list.run.ts).
import { defineCommand } from '../../cli/command.js';
import { SETTING_FIELDS } from './shared/keys.js';

export default defineCommand({
  name: 'list',
  description: 'List the settings of the profile (the API key is shown masked)',
  examples: ['assess config list', 'assess config list --profile staging --json'],
  jsonFields: SETTING_FIELDS,
  handler: () => import('./list.run.js'),
});
