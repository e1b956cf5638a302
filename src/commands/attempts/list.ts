// `assess attempts list --state S --from T --to T` (operation 15): the service's lists, or pending
// and in-progress from this profile's own invitations (./list.run.ts).
import * as z from 'zod/mini';
import { ATTEMPT_STATES } from '../../api/wire-constants.js';
import { defineCommand, flag } from '../../cli/command.js';
import { fieldsOfAnswer } from '../../cli/json-fields.js';
import type * as R from '../../api/read/v3.js';
import type { Column } from '../../output/printer.js';
import { ATTEMPT_WINDOW_FLAGS, checkWindow } from '../shared/attempt-window.js';
import { isOpenState, OPEN_FIELDS, OPEN_STATES } from './shared/open-columns.js';

export const ATTEMPT_COLUMNS: Column<R.TestAttempt>[] = [
  { key: 'testInvitationId', header: 'Invitation', priority: 1, kind: 'id' },
  { key: 'testId', header: 'Test', priority: 5, kind: 'id' },
  { key: 'name', header: 'Name', priority: 4 },
  { key: 'email', header: 'E-mail', priority: 3 },
  { key: 'invitationtype', header: 'Type', priority: 6 },
  { key: 'testStatus', header: 'Status', priority: 2, kind: 'status' },
];

/** What `--json a,b` may name: an attempt's wire fields. */
export const ATTEMPT_FIELDS = fieldsOfAnswer('v3.listAttempts', ATTEMPT_COLUMNS);

const STATES = [...ATTEMPT_STATES, ...OPEN_STATES] as const;

export default defineCommand({
  name: 'list',
  description:
    'List invitations by state within a time window (completed = Complete, Test Left, Terminated); ' +
    'pending and in-progress from the invitations this profile made (the service cannot list those)',
  examples: [
    'assess attempts list --state completed --from 7d --to now',
    'assess attempts list --state expired --from 2026-03-01 --to 2026-04-01 --csv > expired.csv',
    'assess attempts list --state cancelled --from 30d --to now --json testInvitationId,email',
    'assess attempts list --state pending --from 14d          # who has not started, of those invited from here',
  ],
  flags: {
    ...ATTEMPT_WINDOW_FLAGS,
    state: flag(
      "completed (default), cancelled or expired: the service's lists; pending or in-progress: the invitations " +
        'this profile made in the window, checked against the service (it cannot list those states)',
      { value: 'state' },
      () =>
        z._default(
          z.enum(STATES, {
            error: () => 'must be completed, cancelled, expired, pending or in-progress, e.g. --state completed',
          }),
          'completed',
        ),
    ),
  },
  check: checkWindow,
  jsonFields: (input) => (isOpenState(input.state) ? OPEN_FIELDS : ATTEMPT_FIELDS()),
  showsAnswer: true,
  v2: { unsupported: 'v2 cannot list invitations by state' },
  handler: () => import('./list.run.js'),
});
