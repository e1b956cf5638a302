// `assess callbacks verify [FILE|-] --secret-file F`: checks the Standard Webhooks signatures of
// stored requests offline, a capture or with --inbox what `callbacks listen` stored (./verify.run.ts).
import * as z from 'zod/mini';
import { fieldsOf } from '../../cli/json-fields.js';
import { defineCommand, arg, flag } from '../../cli/command.js';
import { durationArg } from '../../util/duration.js';
import { timeArg } from '../../util/time.js';
import { STORE_FLAG } from './shared/open-store.js';

export const COLUMNS = [
  { key: 'id', header: 'Webhook id', priority: 5 },
  { key: 'invitationId', header: 'Invitation', priority: 1, kind: 'id' },
  { key: 'status', header: 'Status', priority: 4, kind: 'status' },
  { key: 'valid', header: 'Valid', priority: 2 },
  { key: 'reason', header: 'Reason', priority: 3 },
] as const;
export const FIELDS = fieldsOf(COLUMNS);

export default defineCommand({
  name: 'verify',
  args: {
    file: arg({ optional: true, stdin: ['-'] }, () => z._default(z.string().check(z.minLength(1)), '-')),
  },
  description:
    'Check the Standard Webhooks signatures (webhook-id, webhook-timestamp, webhook-signature: HMAC-SHA256 of ' +
    'id.timestamp.body with the secret) of stored requests — an inbox, or one {headers, body} JSON — offline',
  examples: [
    'assess callbacks verify received.ndjson --secret-file webhook.secret',
    'ASSESS_WEBHOOK_SECRET="$(cat webhook.secret)" assess callbacks verify request.json --tolerance 10m',
  ],
  flags: {
    secretFile: flag(
      'the signing secret (default: ASSESS_WEBHOOK_SECRET, else the one kept per profile)',
      { value: 'file' },
      () => z.optional(z.string().check(z.minLength(1, 'must name a file'))),
    ),
    inbox: flag("verify what callbacks listen stored (the profile's store, or --store FILE) instead of a file", () =>
      z.optional(z.boolean()),
    ),
    ...STORE_FLAG,
    tolerance: flag(
      'largest allowed distance between webhook-timestamp and the time received, or --at (0 = no check)',
      { value: 'duration', default: '5m' },
      () => durationArg('5m', 0, 365 * 86_400_000),
    ),
    at: flag(
      'check the timestamps against this time instead of when each ' +
        'request was received (now for a capture without receivedAt)',
      { value: 'T' },
      () => z.optional(timeArg('past')),
    ),
  },
  jsonFields: FIELDS,
  handler: () => import('./verify.run.js'),
});
