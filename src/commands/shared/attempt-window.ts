// The window of `attempts list` (operation 15), also validated by `callbacks process
// --from-attempts` and `callbacks reconcile`: --state, --from (required), --to (default now).
import * as z from 'zod';
import { ATTEMPT_STATES } from '../../api/wire-constants.js';
import { timeArg } from '../../util/time.js';

export const attemptWindowSchema = z
  .object({
    // the same defaults as report export: completed attempts, up to now
    state: z.enum(ATTEMPT_STATES, { error: () => 'must be completed, cancelled or expired, e.g. --state completed' }).default('completed'),
    from: timeArg('past', () => new Date()).optional(),
    to: timeArg('past', () => new Date()).prefault('now'),
  })
  .superRefine((v, ctx) => {
    if (!v.from) ctx.addIssue({ code: 'custom', path: ['from'], message: 'is required, e.g. --from 7d or --from 2026-03-01' });
    if (v.from && v.to && Date.parse(v.to) <= Date.parse(v.from)) ctx.addIssue({ code: 'custom', path: ['to'], message: `must be after --from (${v.from})` });
  })
  .transform((v) => ({ state: v.state, from: v.from!, to: v.to! }));
