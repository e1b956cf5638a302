// store path: prints the path of the profile's store, whether or not it exists yet.
import type { Run } from '../../cli/command.js';
import type path from './path.js';
import { pathOf } from './shared/open.js';

export const run: Run<typeof path> = async (ctx) => {
  ctx.io.stdout.write(`${pathOf(ctx, undefined)}\n`);
};
