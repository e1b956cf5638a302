// What `assess sandbox requests` does when it runs; its declaration (flags, help, fields) is ./requests.ts.
import { Printer } from '../../output/printer.js';
import { control, sandboxUrl } from './shared/control.js';
import type { Run } from '../../cli/command.js';
import type requests from './requests.js';

export const run: Run<typeof requests> = async (ctx, input) => {
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
};
