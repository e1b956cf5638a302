// `assess attempts list --state S --from T --to T` (operation 15). Pending and in-progress
// attempts the service cannot list: those come from this profile's own invitations
// (shared/open-attempts.ts).
import * as z from 'zod/mini';
import { ATTEMPT_STATES } from '../../api/wire-constants.js';
import { defineCommand, flag } from '../../cli/command.js';
import { fieldsOfAnswer } from '../../cli/json-fields.js';
import type * as R from '../../api/read/v3.js';
import { Printer, type Column } from '../../output/printer.js';
import { ATTEMPT_WINDOW_FLAGS, checkWindow } from '../shared/attempt-window.js';
import { isOpenState, OPEN_COLUMNS, OPEN_FIELDS, OPEN_STATES } from './shared/open-columns.js';

export const ATTEMPT_COLUMNS: Column<R.TestAttempt>[] = [
  { key: 'testInvitationId', header: 'Invitation', priority: 1, kind: 'id' },
  { key: 'testId', header: 'Test', priority: 5, kind: 'id' },
  { key: 'name', header: 'Name', priority: 4 },
  { key: 'email', header: 'E-mail', priority: 3 },
  { key: 'invitationtype', header: 'Type', priority: 6 },
  { key: 'testStatus', header: 'Status', priority: 2, kind: 'status' },
];

/** What `--json a,b` may name: an attempt's wire fields. */
const FIELDS = fieldsOfAnswer('v3.listAttempts', ATTEMPT_COLUMNS);

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
  jsonFields: (input) => (isOpenState(input.state) ? OPEN_FIELDS : FIELDS()),
  showsAnswer: true,
  v2: { unsupported: 'v2 cannot list invitations by state' },
  async run(ctx, { state, from, to }) {
    if (isOpenState(state)) {
      const { openAttempts, uncheckedError } = await import('./shared/open-attempts.js');
      const { rows, unchecked } = await openAttempts(ctx, state, from!, to);
      await new Printer(ctx).list(rows, { columns: OPEN_COLUMNS, fields: OPEN_FIELDS });
      if (unchecked.length) throw uncheckedError(unchecked, rows.length);
      return;
    }
    const res = await (await ctx.api()).listAttempts(state, from!, to); // checkWindow: --from is given
    await new Printer(ctx).list(res.testAttempts, {
      columns: ATTEMPT_COLUMNS,
      fields: await FIELDS(),
    });
  },
});
