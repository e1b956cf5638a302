// `assess sandbox openapi [--url URL]`: the OpenAPI 3.1 document of the v3/v2 operations a sandbox
// serves (GET /_sandbox/openapi.json), printed as JSON on stdout — for API tools, mock servers
// and client generators. It is generated from the same zod wire schemas the CLI validates with.
import * as z from 'zod';
import { defineCommand, zx } from '../../cli/command.js';
import { control, sandboxUrl } from './shared/control.js';

export default defineCommand({
  name: 'openapi',
  description: 'Print the OpenAPI 3.1 document of the service the sandbox serves (v3, and v2 marked deprecated)',
  examples: ['assess --sandbox sandbox openapi > openapi.json', 'assess sandbox openapi --url http://127.0.0.1:4010'],
  options: (cmd) => cmd.option('--url <url>', 'sandbox base URL (default: --sandbox, or the profile base URL)'),
  schema: () => z.object({ url: zx.url().optional() }),
  async run(ctx, input) {
    const doc = await control<unknown>(ctx, await sandboxUrl(ctx, input.url), 'GET', '/openapi.json');
    ctx.io.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
  },
});
