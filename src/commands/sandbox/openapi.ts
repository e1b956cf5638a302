// `assess sandbox openapi [--url URL]`: the OpenAPI 3.1 document of the v3/v2 operations a sandbox
// serves (GET /_sandbox/openapi.json), printed as JSON on stdout — for API tools, mock servers
// and client generators. It is generated from the same zod wire schemas the CLI validates with,
// and describes the completion notification under `webhooks`. With the embedded sandbox
// (--sandbox), which stops when the command ends, its servers entry names `sandbox serve --port 4010`.
import * as z from 'zod/mini';
import { defineCommand, zx, flag } from '../../cli/command.js';

export default defineCommand({
  name: 'openapi',
  description: 'Print the OpenAPI 3.1 document of the service the sandbox serves (v3, and v2 marked deprecated)',
  examples: ['assess --sandbox sandbox openapi > openapi.json', 'assess sandbox openapi --url http://127.0.0.1:4010'],
  flags: {
    url: flag('sandbox base URL (default: --sandbox, or the profile base URL)', { value: 'url' }, () =>
      z.optional(zx.url()),
    ),
  },
  handler: () => import('./openapi.run.js'),
});
