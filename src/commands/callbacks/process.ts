// `assess callbacks process <ids…> | --file F`: re-queues the notifications of any number of
// invitations, in requests of at most 100 ids (./process.run.ts).
import * as z from 'zod/mini';
import { ATTEMPT_STATES, MAX_CALLBACK_IDS } from '../../api/wire-constants.js';
import { defineCommand, zx, arg, flag } from '../../cli/command.js';
import { RATE_HELP, rateFlag } from '../../bulk/rate-flag.js';
import { fieldsOf } from '../../cli/json-fields.js';
import type { Column } from '../../output/printer.js';
import type { CallbackResult } from './shared/process-chunk.js';

/** A result as shown: the service's, or `not registered` (--from-attempts). */
export type Reported = Omit<CallbackResult, 'status'> & { status: CallbackResult['status'] | 'not registered' };

export const COLUMNS: Column<Reported>[] = [
  { key: 'testInvitationId', header: 'Invitation', priority: 1, kind: 'id' },
  { key: 'status', header: 'Result', priority: 2, kind: 'status' },
  { key: 'message', header: 'Message', priority: 3 },
];
/** One result row per invitation; these are the only fields `--json a,b` may pick. */
export const FIELDS = fieldsOf(COLUMNS);

export default defineCommand({
  name: 'process',
  args: {
    ids: arg({ optional: true, variadic: true }, () => z._default(z.array(z.string()), [])),
  },
  description: `Re-queue completion notifications for invitations (any number; sent ${MAX_CALLBACK_IDS} per request)`,
  examples: [
    'assess callbacks process 900001 900002 900003',
    'assess callbacks process --file ids.txt --json',
    'cut -f1 completed.tsv | assess callbacks process --file -',
    'assess callbacks process --from-attempts --state completed --from 1d --to now',
  ],
  flags: {
    file: flag(
      'read ids from this file (- for standard input): one per line or comma/space separated, # comments',
      { value: 'file', stdin: ['-'] },
      () => z.optional(z.string().check(z.minLength(1, 'must name a file, or - for standard input'))),
    ),
    fromAttempts: flag('take the ids of every attempt listed by --state, --from and --to', () =>
      z.optional(z.boolean()),
    ),
    // checked with the attempts list's schema once --from-attempts is known to be there
    state: flag('with --from-attempts: completed, cancelled or expired', { value: 'state' }, () =>
      z.optional(z.string().register(z.globalRegistry, { completion: ATTEMPT_STATES })),
    ),
    from: flag(
      'with --from-attempts: window start (YYYY-MM-DD, ISO 8601 or relative: -1d, "1d ago", yesterday)',
      { value: 'T' },
      () => z.optional(z.string()),
    ),
    to: flag('with --from-attempts: window end', { value: 'T' }, () => z.optional(z.string())),
    concurrency: flag('most requests in flight at once (default: profile concurrency, else 8)', { value: 'n' }, () =>
      z.optional(zx.int(1, 64, 8)),
    ),
    rate: flag(RATE_HELP, { value: 'N/s' }, () => z.optional(rateFlag())),
  },
  jsonFields: FIELDS,
  v2: { unsupported: 'v2 cannot reprocess callbacks' },
  handler: () => import('./process.run.js'),
});
