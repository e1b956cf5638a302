// config get: one setting of the profile, the value alone or a config list row (./get.run.ts).
import { defineCommand, arg } from '../../cli/command.js';
import { configKey, SETTING_FIELDS } from './shared/keys.js';

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
  handler: () => import('./get.run.js'),
});
