// `assess sandbox deliveries [--invitation ID] [--attempts]`: the callbacks the sandbox sent (or is
// still sending) and the outcome of every try: GET /_sandbox/deliveries.
import * as z from 'zod/mini';
import { defineCommand, zx, flag } from '../../cli/command.js';

export default defineCommand({
  name: 'deliveries',
  description: 'List callback deliveries the sandbox made: URL, state (pending, delivered, failed) and every try',
  examples: [
    'assess --sandbox sandbox deliveries',
    'assess sandbox deliveries --invitation 900010 --attempts --url http://127.0.0.1:4010',
    'assess sandbox deliveries --json deliveryId,state,attempts',
  ],
  flags: {
    invitation: flag('only deliveries for this invitation', { value: 'id' }, () => z.optional(zx.id('900010'))),
    attempts: flag('one row per try (time, status or error, duration) instead of one per delivery', () =>
      z.optional(z.boolean()),
    ),
    url: flag('sandbox base URL (default: --sandbox, or the profile base URL)', { value: 'url' }, () =>
      z.optional(zx.url()),
    ),
  },
  handler: () => import('./deliveries.run.js'),
});
