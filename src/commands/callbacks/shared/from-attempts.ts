// `callbacks process --from-attempts --state S --from T --to T`: the ids come from list
// attempts (operation 15) instead of arguments or a file.
import type { Context } from '../../../context.js';
import { UsageError } from '../../../errors.js';
import { attemptWindowSchema } from '../../shared/attempt-window.js';
import { plural } from '../../../util/plural.js';

export interface FromAttemptsInput {
  fromAttempts?: boolean;
  state?: string;
  from?: string;
  to?: string;
}

/** The ids in the window, or undefined when --from-attempts was not given. */
export async function idsFromAttempts(
  ctx: Context,
  input: FromAttemptsInput,
  other: { args: number; file: boolean },
): Promise<string[] | undefined> {
  if (!input.fromAttempts) {
    const stray = (['state', 'from', 'to'] as const).find((k) => input[k] !== undefined);
    if (stray)
      throw new UsageError(
        `--${stray}: needs --from-attempts`,
        'e.g. assess callbacks process --from-attempts --state completed --from 7d --to now',
      );
    return undefined;
  }
  if (other.args || other.file)
    throw new UsageError('--from-attempts: give ids as arguments, with --file, or with --from-attempts — one of them');
  const parsed = attemptWindowSchema().safeParse({ state: input.state, from: input.from, to: input.to });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new UsageError(`--${String(issue.path[0] ?? 'state')}: ${issue.message}`);
  }
  const { state, from, to } = parsed.data;
  const res = await (await ctx.api()).listAttempts(state, from, to);
  const ids = res.testAttempts.map((a) => String(a.testInvitationId));
  ctx.info(`${plural(ids.length, `${state} attempt`)} between ${from} and ${to}.`);
  return ids;
}
