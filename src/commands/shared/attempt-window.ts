// The window of `attempts list` (operation 15), also validated by `callbacks process
// --from-attempts` and `callbacks reconcile`: --state, --from (required), --to (default now).
import * as z from 'zod/mini';
import { ATTEMPT_STATES } from '../../api/wire-constants.js';
import { flag } from '../../cli/command.js';
import { schemaOf } from '../../cli/flags.js';
import { timeArg } from '../../util/time.js';

/**
 * The flags of the attempts list; `callbacks process --from-attempts` and `callbacks reconcile` check their window with
 * them too.
 */
export const ATTEMPT_WINDOW_FLAGS = {
  // the same defaults as report export: completed attempts, up to now
  state: flag('completed (default), cancelled or expired', { value: 'state' }, () =>
    z._default(
      z.enum(ATTEMPT_STATES, { error: () => 'must be completed, cancelled or expired, e.g. --state completed' }),
      'completed',
    ),
  ),
  from: flag(
    'window start: YYYY-MM-DD, ISO 8601 or relative (-7d, "7d ago", yesterday; a bare 7d also counts back)',
    { value: 'T' },
    () => z.optional(timeArg('past', () => new Date())),
  ),
  to: flag('window end, e.g. now (the default), today or -1d', { value: 'T' }, () =>
    z.prefault(
      timeArg('past', () => new Date()),
      'now',
    ),
  ),
};

/** --from is required, and the window must not be empty. */
export function checkWindow(v: { from?: string; to?: string }, ctx: z.core.$RefinementCtx): void {
  if (!v.from)
    ctx.addIssue({ code: 'custom', path: ['from'], message: 'is required, e.g. --from 7d or --from 2026-03-01' });
  if (v.from && v.to && Date.parse(v.to) <= Date.parse(v.from))
    ctx.addIssue({ code: 'custom', path: ['to'], message: `must be after --from (${v.from})` });
}

/** The window's flags validated together (built when a run needs it, not when the flags load). */
export const attemptWindowSchema = () =>
  z.pipe(
    schemaOf(ATTEMPT_WINDOW_FLAGS, checkWindow),
    z.transform((v) => ({ state: v.state, from: v.from!, to: v.to })),
  );
