// `assess api METHOD PATH`: an authenticated request to any endpoint, the raw escape hatch (./command.run.ts).
import * as z from 'zod/mini';
import { defineCommand, arg, flag } from '../../cli/command.js';
import { maxSizeFlag } from '../shared/max-size.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

export default defineCommand({
  name: 'api',
  args: {
    method: arg(() =>
      z.pipe(
        z.pipe(
          z.string(),
          z.transform((m) => m.toUpperCase()),
        ),
        z.enum(METHODS, { message: `must be one of ${METHODS.join(', ')}` }),
      ),
    ),
    path: arg(() => z.string().check(z.regex(/^\/[^\s]*$/, 'must be a path starting with /, e.g. /v3/tests'))),
  },
  description: 'Send an authenticated request; streams the body to stdout (pretty JSON on a terminal, raw when piped)',
  examples: [
    'assess api GET /v3/tests',
    `assess api POST /v3/tests/1001/invite --data '{"email":"ann@example.com","name":"Ann"}'`,
    'assess api POST /v3/callbacks/process --data @ids.json',
    'assess api GET /v2/org/tests --v2',
  ],
  flags: {
    data: flag(
      'request body: JSON text, @file, or - for standard input',
      { short: 'd', value: 'json', stdin: ['-', '@-'] },
      () => z.optional(z.string()),
    ),
    v2: flag('send to the v2 base URL with the v2 header', () => z.optional(z.boolean())),
    maxSize: maxSizeFlag('the largest answer to print, of any content type', 'the answer cap, 64MiB'),
  },
  handler: () => import('./command.run.js'),
});
