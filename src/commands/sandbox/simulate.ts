import * as z from 'zod/mini';
import { defineCommand, zx, arg, flag } from '../../cli/command.js';

const TARGETS = ['start', 'complete', 'leave', 'terminate', 'expire'] as const;

export default defineCommand({
  name: 'simulate',
  args: {
    invitationId: arg(() => zx.id('5001')),
    to: arg(() => z.enum(TARGETS, { message: `must be one of ${TARGETS.join(', ')}` })),
  },
  description: 'Move an invitation as a candidate would: start, complete (with a score), leave, terminate, expire',
  examples: [
    'assess --sandbox sandbox simulate 900004 start',
    'assess --sandbox sandbox simulate 900004 complete --score 82',
    'assess sandbox simulate 900005 complete --section-scores 90,60 --url http://127.0.0.1:4010',
  ],
  flags: {
    score: flag('overall score 0-100 when completing', { value: 'percent' }, () =>
      z.optional(z.coerce.number({ message: 'must be a number 0-100, e.g. 75' }).check(z.minimum(0), z.maximum(100))),
    ),
    sectionScores: flag('per-section scores 0-100, comma-separated, in section order', { value: 'list' }, () =>
      z.optional(
        z
          .pipe(
            z.string(),
            z.transform((s) => s.split(',').map((p) => Number(p.trim()))),
          )
          .check(
            z.refine(
              (a) => a.length > 0 && a.every((n) => Number.isFinite(n) && n >= 0 && n <= 100),
              'must be numbers 0-100, e.g. 90,60',
            ),
          ),
      ),
    ),
    url: flag('sandbox base URL (default: --sandbox, or the profile base URL)', { value: 'url' }, () =>
      z.optional(zx.url()),
    ),
  },
  handler: () => import('./simulate.run.js'),
});
