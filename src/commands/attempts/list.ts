// `assess attempts list --state S --from T --to T` (operation 15).
import { defineCommand } from '../../cli/command.js';
import { fieldsOfAnswer } from '../../cli/json-fields.js';
import type * as R from '../../api/read/v3.js';
import { Printer, type Column } from '../../output/printer.js';
import { ATTEMPT_WINDOW_FLAGS, checkWindow } from '../shared/attempt-window.js';

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

export default defineCommand({
  name: 'list',
  description: 'List invitations by state within a time window (completed = Complete, Test Left, Terminated)',
  examples: [
    'assess attempts list --state completed --from 7d --to now',
    'assess attempts list --state expired --from 2026-03-01 --to 2026-04-01 --csv > expired.csv',
    'assess attempts list --state cancelled --from 30d --to now --json testInvitationId,email',
  ],
  flags: ATTEMPT_WINDOW_FLAGS,
  check: checkWindow,
  jsonFields: FIELDS,
  showsAnswer: true,
  v2: { unsupported: 'v2 cannot list invitations by state' },
  async run(ctx, { state, from, to }) {
    const res = await (await ctx.api()).listAttempts(state, from!, to); // checkWindow: --from is given
    await new Printer(ctx).list(res.testAttempts, {
      columns: ATTEMPT_COLUMNS,
      fields: await FIELDS(),
    });
  },
});
