import { z } from 'zod';
import { defineCommand, zx } from '../../cli/command.js';
import { v3Only } from '../../cli/json-fields.js';
import { printSettings, SETTINGS_FIELDS } from './view.js';
import { refuseV2 } from '../v2/client.js';

export default defineCommand({
  name: 'get',
  args: ['<testId>'],
  description: 'Show the settings of a test (one setting per line; --json gives the service object)',
  examples: [
    'assess settings get 1001',
    'assess settings get 1001 --json > settings.json',
    'assess settings get 1001 --json windowViolationSettings',
  ],
  schema: z.object({ testId: zx.id('1001') }),
  jsonFields: v3Only(SETTINGS_FIELDS),
  showsAnswer: true,
  async run(ctx, { testId }) {
    refuseV2(ctx, 'settings get', 'v2 has no test settings');
    const settings = await (await ctx.api()).getSettings(testId);
    printSettings(ctx, settings as Record<string, unknown>);
  },
});
