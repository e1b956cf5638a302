// What `assess sandbox clock` does when it runs; its declaration (flags, help, fields) is ./clock.ts.
import { UsageError } from '../../errors.js';
import type { Context } from '../../context.js';
import { Printer } from '../../output/printer.js';
import { parseTime } from '../../util/time.js';
import { control, sandboxUrl } from './shared/control.js';
import { plural } from '../../util/plural.js';
import type { Run } from '../../cli/command.js';
import type clock from './clock.js';

/** How many expired ids the notice names; the rest are counted (--json has them all). */
const SHOWN_IDS = 20;

type ClockView = { now: string; offsetMs: number; frozen: boolean; expired?: number[] };

export const run: Run<typeof clock> = async (ctx, input) => {
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
};

/**
 * The time alone on a terminal or a pipe (scripts read it so); the whole view under --json, --ndjson, --csv, --query.
 */
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
