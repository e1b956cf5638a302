// settings get: reads the settings of a test and shows them (shared/view.ts says how).
import type { Run } from '../../cli/command.js';
import type get from './get.js';
import { printSettings } from './shared/view.js';

export const run: Run<typeof get> = async (ctx, { testId }) => {
  const settings = await (await ctx.api()).getSettings(testId);
  await printSettings(ctx, settings as Record<string, unknown>);
};
