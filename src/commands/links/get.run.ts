// links get: reads one test link and prints it (shared/view.ts says how).
import type { Run } from '../../cli/command.js';
import type get from './get.js';
import { printLink } from './shared/view.js';
import { getLinkV2 } from './shared/v2.js';

export const run: Run<typeof get> = async (ctx, { testId, linkId }) => {
  await printLink(ctx, await (await ctx.api()).getLink(testId, linkId));
};

export const runV2: Run<typeof get> = (ctx, { testId, linkId }) => getLinkV2(ctx, testId, linkId);
