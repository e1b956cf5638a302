// `assess attempts wait <invitationId…> --until complete|any-terminal|started`: polls each
// invitation's report status until it reaches the target, like `gh run watch` (./wait.run.ts).
import * as z from 'zod/mini';
import { fieldsOf } from '../../cli/json-fields.js';
import { defineCommand, arg, flag } from '../../cli/command.js';
import { durationArg } from '../../util/duration.js';
import { UNTIL } from './shared/wait-target.js';

export const WAIT_COLUMNS = [
  { key: 'testInvitationId', header: 'Invitation', priority: 1, kind: 'id' },
  { key: 'status', header: 'Status', priority: 2, kind: 'status' },
  { key: 'outcome', header: 'Outcome', priority: 3, kind: 'status' },
] as const;
export const WAIT_FIELDS = fieldsOf(WAIT_COLUMNS);

export default defineCommand({
  name: 'wait',
  args: {
    ids: arg({ optional: true, variadic: true }, () => z._default(z.array(z.string()), [])),
  },
  description: 'Wait until invitations reach a status (complete, any-terminal, started); exit code says how it ended',
  examples: [
    'assess attempts wait 900001 --until complete',
    'assess attempts wait 900001 900002 --until any-terminal --interval 1m --timeout 8h',
    'assess attempts wait 900001 --until any-terminal --exit-status   # exit 1 unless it ended Complete',
    'assess attempts wait 900001 --until started && echo "the candidate has begun"',
  ],
  flags: {
    until: flag(
      `complete, any-terminal (Complete, Test Left, Terminated, Cancelled, Expired) or started`,
      { value: 'state', default: 'complete' },
      () => z.enum(UNTIL, { error: `must be one of ${UNTIL.join(', ')}, e.g. --until complete` }),
    ),
    interval: flag('time between polls', { value: 'duration', default: '30s' }, () =>
      durationArg('30s', 100, 86_400_000),
    ),
    timeout: flag(
      'give up after this long (exit 6); here not the per-request timeout (default 4h)',
      { value: 'duration' },
      () => z.pipe(z._default(z.string(), '4h'), durationArg('4h', 100, 30 * 86_400_000)),
    ),
    exitStatus: flag(
      'exit 1 when an invitation ended in any final state other than Complete (as gh run watch --exit-status)',
      () => z.optional(z.boolean()),
    ),
  },
  jsonFields: WAIT_FIELDS,
  v2: { unsupported: 'it polls the v3 report status' },
  ownsGlobals: ['timeout'],
  handler: () => import('./wait.run.js'),
});
