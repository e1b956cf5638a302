import * as z from 'zod/mini';
import { defineCommand, zx, flag } from '../../cli/command.js';

export default defineCommand({
  name: 'reset',
  description: 'Throw away all sandbox changes and go back to the seed data',
  examples: ['assess --sandbox sandbox reset --yes', 'assess sandbox reset --url http://127.0.0.1:4010 --yes'],
  flags: {
    url: flag('sandbox base URL (default: --sandbox, or the profile base URL)', { value: 'url' }, () =>
      z.optional(zx.url()),
    ),
  },
  jsonFields: ['reset', 'now', 'offsetMs', 'frozen', 'tests', 'invitations'],
  handler: () => import('./reset.run.js'),
});
