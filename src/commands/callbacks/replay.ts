// `assess callbacks replay <invitationId…> | --since T [--to URL]`: sends stored notifications from
// the inbox again, body byte for byte, to the listener's forward target or --to (./replay.run.ts).
import * as z from 'zod/mini';
import { fieldsOf } from '../../cli/json-fields.js';
import { defineCommand, zx, arg, flag } from '../../cli/command.js';
import { timeArg } from '../../util/time.js';
import { retryFlags } from './shared/listen-extras.js';
import { STORE_FLAG } from './shared/open-store.js';

export const COLUMNS = [
  { key: 'invitationId', header: 'Invitation', priority: 1, kind: 'id' },
  { key: 'status', header: 'Status', priority: 3, kind: 'status' },
  { key: 'result', header: 'Result', priority: 2, kind: 'status' },
  { key: 'tries', header: 'Tries', priority: 5 },
  { key: 'error', header: 'Error', priority: 4 },
] as const;
export const FIELDS = fieldsOf(['id', 'invitationId', 'status', 'result', 'httpStatus', 'tries', 'error'], COLUMNS);

export default defineCommand({
  name: 'replay',
  args: {
    ids: arg({ optional: true, variadic: true }, () => z._default(z.array(z.string()), [])),
  },
  description: 'Send stored notifications from the inbox again (body unchanged) to the forward target or --to',
  examples: [
    'assess callbacks replay 900001 900002',
    'assess callbacks replay --since 1d --to http://localhost:3000/webhooks/assess --sign --secret-file webhook.secret',
  ],
  flags: {
    since: flag('every notification received from this time on (instead of ids)', { value: 'T' }, () =>
      z.optional(timeArg('past')),
    ),
    to: flag("where to send them (default: the listener's --forward-to recorded in the store)", { value: 'url' }, () =>
      z.optional(zx.url()),
    ),
    ...STORE_FLAG,
    sign: flag(
      'sign them (Standard Webhooks headers); to the recorded ' +
        'target they are signed as the listener signed them anyway',
      { negate: 'send them unsigned, also to a target the listener signed for' },
      () => z.optional(z.boolean()),
    ),
    secretFile: flag(
      'the signing secret (default: the one the listener used, ' +
        'else ASSESS_WEBHOOK_SECRET, else the one kept per profile)',
      { value: 'file' },
      () => z.optional(z.string().check(z.minLength(1, 'must name a file'))),
    ),
    ...retryFlags('send'),
  },
  jsonFields: FIELDS,
  handler: () => import('./replay.run.js'),
});
