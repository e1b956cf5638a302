import * as z from 'zod/mini';
import { defineCommand, zx, flag } from '../../cli/command.js';
import { Printer } from '../../output/printer.js';
import { control, sandboxUrl } from './shared/control.js';

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
  async run(ctx, input) {
    const q = input.limit ? `?limit=${input.limit}` : '';
    const r = await control<{ requests: Array<Record<string, unknown>> }>(
      ctx,
      await sandboxUrl(ctx, input.url),
      'GET',
      `/requests${q}`,
    );
    await new Printer(ctx).list(r.requests, {
      columns: [
        { key: 'at', header: 'At', priority: 4, kind: 'date' },
        { key: 'method', header: 'Method', priority: 1 },
        { key: 'path', header: 'Path', priority: 2 },
        { key: 'status', header: 'Status', priority: 3 },
        { key: 'accountId', header: 'Account', priority: 5 },
      ],
    });
  },
});
