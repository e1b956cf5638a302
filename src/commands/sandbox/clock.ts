import * as z from 'zod/mini';
import { defineCommand, zx, arg, flag } from '../../cli/command.js';
import { parseDuration } from '../../sandbox/specs.js';
import { UsageError } from '../../errors.js';
import type { Context } from '../../context.js';
import { Printer } from '../../output/printer.js';
import { parseTime } from '../../util/time.js';
import { control, sandboxUrl } from './shared/control.js';
import { plural } from '../../util/plural.js';

/** A century: further would leave the four-digit years the service's timestamps have. */
const MAX_ADVANCE_MS = 36_500 * 86_400_000;
/** How many expired ids the notice names; the rest are counted (--json has them all). */
const SHOWN_IDS = 20;

type ClockView = { now: string; offsetMs: number; frozen: boolean; expired?: number[] };

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
  async run(ctx, input) {
    const base = await sandboxUrl(ctx, input.url);
    if (input.action === 'show') return print(ctx, await control<ClockView>(ctx, base, 'GET', '/clock'));
    if (input.value === undefined) throw new UsageError('[value]: missing');
    // set: any T, from this machine's clock (`set now` undoes every advance); advance moves the sandbox's
    const body =
      input.action === 'advance'
        ? { advance: input.value }
        : { set: (parseTime(input.value, ctx.now(), 'future') as Date).toISOString() };
    const r = await control<Omit<ClockView, 'expired'> & { expired?: unknown }>(ctx, base, 'POST', '/clock', body);
    const expired = Array.isArray(r.expired) ? (r.expired as number[]) : [];
    await print(ctx, { now: r.now, offsetMs: r.offsetMs, frozen: r.frozen, expired });
    if (expired.length) {
      const more = expired.length > SHOWN_IDS ? ` and ${expired.length - SHOWN_IDS} more` : '';
      ctx.info(`${plural(expired.length, 'invitation')} expired: ${expired.slice(0, SHOWN_IDS).join(', ')}${more}.`);
    }
  },
});

/** The time alone on a terminal or a pipe (scripts read it so); the whole view under --json, --ndjson, --csv, --query. */
async function print(ctx: Context, view: ClockView): Promise<void> {
  const { output, query } = ctx.globals;
  if ((output === 'table' || output === 'tsv') && !query) return void ctx.io.stdout.write(`${view.now}\n`);
  await new Printer(ctx).object(view, {
    fields: [
      { key: 'now', header: 'Now', kind: 'date' },
      { key: 'offsetMs', header: 'Offset (ms)' },
      { key: 'frozen', header: 'Frozen' },
      ...(view.expired ? [{ key: 'expired' as const, header: 'Expired' }] : []),
    ],
  });
}
