// `assess callbacks listen`: a local receiver for completion notifications (like `stripe listen`
// for webhooks) that stores, prints, and optionally forwards each one or runs a command with it
// (./listen.run.ts).
import * as z from 'zod/mini';
import { defineCommand, flag, zx } from '../../cli/command.js';
import { CALLBACK_V3_FIELDS } from '../../api/wire-constants.js';
import { LISTEN_EXTRA_FLAGS, queueBytesArg } from './shared/listen-extras.js';
import { LISTEN_SERVICE_FLAGS } from './shared/listen-service.js';

const DEFAULT_EXEC_QUEUE = 1000;
const DEFAULT_QUEUE_BYTES = 64 * 1024 * 1024;

export const tokenSchema = () =>
  z
    .string()
    .check(
      z.regex(/^[A-Za-z0-9._~-]{1,200}$/, 'must be 1-200 URL-safe characters (letters, digits, . _ ~ -), e.g. s3cret'),
    );

export default defineCommand({
  name: 'listen',
  description:
    'Receive completion notifications locally into the store (each committed before its 200): print each one, ' +
    'optionally forward it (retried, signed) or run a command with it',
  examples: [
    'assess callbacks listen --port 8787',
    'assess callbacks listen --port 0 --token-file listen.token ' +
      '--print-url   # the first stdout line is the URL to register',
    'assess callbacks listen --forward-to http://localhost:3000/webhooks/assess',
    "assess callbacks listen --ndjson --exec 'jq -r .Status >> statuses.txt'",
    'assess callbacks listen --forward-to http://localhost:3000/webhooks/assess --sign --secret-file webhook.secret',
  ],
  flags: {
    ...LISTEN_EXTRA_FLAGS,
    ...LISTEN_SERVICE_FLAGS,
    port: flag('port to listen on (0 = any free port)', { value: 'n', default: '8787' }, () => zx.int(0, 65535, 8787)),
    host: flag('address to bind', { value: 'addr', default: '127.0.0.1' }, () => zx.host()),
    path: flag('the path notifications are POSTed to', { value: 'path', default: '/hook' }, () =>
      z.string().check(z.regex(/^\/[A-Za-z0-9._~\-/]*$/, 'must be a URL path starting with /, e.g. /hook')),
    ),
    forwardTo: flag(
      'also POST each stored notification, body unchanged, to this URL (what a killed listener did not forward is ' +
        'resumed on restart)',
      { value: 'url' },
      () => z.optional(zx.url()),
    ),
    exec: flag(
      'run this shell command per notification: JSON on stdin, fields in ASSESS_EVENT_* variables (ASSESS_API_KEY ' +
        'and the secrets removed from its environment)',
      { value: 'command' },
      () => z.optional(z.string().check(z.trim(), z.minLength(1, 'must be a command, e.g. "cat >> events.ndjson"'))),
    ),
    tokenFile: flag(
      'only accept requests whose URL carries ?token=<the token in this file> (others get 401); also ' +
        'ASSESS_LISTEN_TOKEN',
      { value: 'file' },
      () => z.optional(z.string().check(z.minLength(1, 'must name a file, e.g. ./listen.token'))),
    ),
    token: flag(
      'as --token-file, the token given on the command line (visible to other users in ps: prefer --token-file)',
      { value: 'token' },
      () => z.optional(tokenSchema()),
    ),
    printUrl: flag('print the callback URL to register as the first line of stdout, then keep listening', () =>
      z.optional(z.boolean()),
    ),
    execQueue: flag(
      `notifications waiting for --exec at most (default ${DEFAULT_EXEC_QUEUE}); more are dropped with a warning`,
      { value: 'n' },
      () => z._default(zx.int(1, 1_000_000, DEFAULT_EXEC_QUEUE), DEFAULT_EXEC_QUEUE),
    ),
    execQueueBytes: flag(
      'bytes of notifications waiting for --exec at most (default 64MB; e.g. 512KB, 1GB)',
      { value: 'size' },
      () => queueBytesArg(DEFAULT_QUEUE_BYTES),
    ),
  },
  // The notification's own field names (v3's are a superset of v2's): --json a,b picks from them.
  jsonFields: CALLBACK_V3_FIELDS,
  handler: () => import('./listen.run.js'),
});
