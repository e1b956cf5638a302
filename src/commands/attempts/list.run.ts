// attempts list: the service's list for a state it can list; pending and in-progress attempts it
// cannot, so those come from this profile's own invitations (shared/open-attempts.ts).
import type { Run } from '../../cli/command.js';
import { Printer } from '../../output/printer.js';
import type list from './list.js';
import { ATTEMPT_COLUMNS, ATTEMPT_FIELDS } from './list.js';
import { isOpenState, OPEN_COLUMNS, OPEN_FIELDS } from './shared/open-columns.js';

export const run: Run<typeof list> = async (ctx, { state, from, to }) => {
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
    fields: await ATTEMPT_FIELDS(),
  });
};
