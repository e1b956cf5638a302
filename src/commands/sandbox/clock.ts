import * as z from 'zod/mini';
import { defineCommand, zx, arg, flag } from '../../cli/command.js';
import { parseDuration } from '../../sandbox/specs.js';
import { parseTime } from '../../util/time.js';

/** A century: further would leave the four-digit years the service's timestamps have. */
const MAX_ADVANCE_MS = 36_500 * 86_400_000;

export default defineCommand({
  name: 'clock',
  args: {
    action: arg({ optional: true }, () =>
      z._default(z.enum(['show', 'advance', 'set'], { message: 'must be show, advance or set' }), 'show'),
    ),
    value: arg({ optional: true }, () => z.optional(z.string())),
  },
  description: 'Show the sandbox clock, advance it (expiring invitations whose end passes), or set it',
  examples: [
    'assess --sandbox sandbox clock',
    'assess --sandbox sandbox clock advance 3d',
    'assess sandbox clock set 2026-12-01T00:00:00Z --url http://127.0.0.1:4010',
    "assess --sandbox sandbox clock set now   # back to this machine's time",
  ],
  flags: {
    url: flag('sandbox base URL (default: --sandbox, or the profile base URL)', { value: 'url' }, () =>
      z.optional(zx.url()),
    ),
  },
  jsonFields: ['now', 'offsetMs', 'frozen', 'expired'],
  check: (v, c) => {
    if (
      v.action === 'advance' &&
      (v.value === undefined || parseDuration(v.value) === null || parseDuration(v.value)! > MAX_ADVANCE_MS)
    )
      c.addIssue({
        code: 'custom',
        path: ['value'],
        message: 'advance needs a duration like 3d, 12h, 30m or 1d12h, of at most 36500d',
      });
    // Date.parse alone takes impossible dates (2026-02-30) and leaves them for the sandbox to refuse.
    if (v.action === 'set' && (v.value === undefined || typeof parseTime(v.value, new Date(), 'future') === 'string'))
      c.addIssue({
        code: 'custom',
        path: ['value'],
        message: "set needs a time: now (back to this machine's clock), 2026-12-01T00:00:00Z, 2026-12-01 or +2d",
      });
  },
  handler: () => import('./clock.run.js'),
});
