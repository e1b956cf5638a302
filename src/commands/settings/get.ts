// settings get: the settings of a test, one per line (./get.run.ts).
import { defineCommand, zx, arg } from '../../cli/command.js';
import { SETTINGS_FIELDS } from './shared/view.js';

export default defineCommand({
  name: 'get',
  args: {
    testId: arg(() => zx.id('1001')),
  },
  description: 'Show the settings of a test (one setting per line; --json gives the service object)',
  examples: [
    'assess settings get 1001',
    'assess settings get 1001 --json > settings.json',
    'assess settings get 1001 --json windowViolationSettings',
  ],
  jsonFields: SETTINGS_FIELDS,
  showsAnswer: true,
  v2: { unsupported: 'v2 has no test settings' },
  handler: () => import('./get.run.js'),
});
