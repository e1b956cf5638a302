// What `assess sandbox openapi` does when it runs; its declaration (flags, help, fields) is ./openapi.ts.
import { control, sandboxUrl } from './shared/control.js';
import type { Run } from '../../cli/command.js';
import type openapi from './openapi.js';

export const run: Run<typeof openapi> = async (ctx, input) => {
  const doc = await control<Record<string, unknown>>(ctx, await sandboxUrl(ctx, input.url), 'GET', '/openapi.json');
  // The embedded sandbox of --sandbox stops with this command: its port would be a dead address.
  if (!input.url && ctx.globals.sandbox) {
    doc.servers = [
      { url: 'http://127.0.0.1:4010', description: 'assess sandbox serve --port 4010 (v3 and v2 share the origin)' },
    ];
    ctx.info(
      'The servers entry names http://127.0.0.1:4010: start a sandbox there with assess sandbox serve --port 4010 ' +
        '(the one --sandbox started stops now).',
    );
  }
  ctx.io.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
};
