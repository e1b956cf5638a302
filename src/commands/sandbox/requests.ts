import * as z from 'zod/mini';
import { defineCommand, zx, flag } from '../../cli/command.js';

export default defineCommand({
  name: 'requests',
  description: 'List the API requests the sandbox received (method, path, status, body; keys redacted)',
  examples: [
    'assess --sandbox sandbox requests',
    'assess sandbox requests --limit 20 --json --url http://127.0.0.1:4010',
  ],
  flags: {
    limit: flag('only the last N requests', { value: 'n' }, () => z.optional(zx.int(1, 100000, 20))),
    url: flag('sandbox base URL (default: --sandbox, or the profile base URL)', { value: 'url' }, () =>
      z.optional(zx.url()),
    ),
  },
  handler: () => import('./requests.run.js'),
});
