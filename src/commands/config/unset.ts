// config unset: one setting removed from the profile (./unset.run.ts).
import { defineCommand, arg } from '../../cli/command.js';
import { configKey } from './shared/keys.js';

export default defineCommand({
  name: 'unset',
  args: {
    key: arg(() => configKey),
  },
  description: 'Remove one setting from the profile (back to its default)',
  examples: ['assess config unset timeout', 'assess config unset api-key --profile old'],
  handler: () => import('./unset.run.js'),
});
