// links list: one request for the test's links, printed as a table (columns fitted to the rows) or as data.
import type { Run } from '../../cli/command.js';
import { Printer } from '../../output/printer.js';
import type list from './list.js';
import { forTable, LINK_COLUMNS, LINK_FIELDS } from './shared/view.js';
import { listLinksV2 } from './shared/v2.js';

export const run: Run<typeof list> = async (ctx, { testId }) => {
  const { testLinks } = await (await ctx.api()).listLinks(testId);
  await new Printer(ctx).list(testLinks as Array<Record<string, unknown>>, {
    columns: await forTable(ctx, LINK_COLUMNS, testLinks),
    fields: await LINK_FIELDS(),
  });
};

export const runV2: Run<typeof list> = (ctx, { testId }) => listLinksV2(ctx, testId);
