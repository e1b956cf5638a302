import { defineCommand, zx, arg } from '../../cli/command.js';
import { Printer } from '../../output/printer.js';
import { forTable, LINK_COLUMNS, LINK_FIELDS } from './shared/view.js';
import { listLinksV2, V2_LINK_FIELDS } from './shared/v2.js';

export default defineCommand({
  name: 'list',
  args: {
    testId: arg(() => zx.id('1001')),
  },
  description: 'List the test links of a test',
  examples: [
    'assess links list 1001',
    'assess links list 1001 --json testLinkId,testLinkName',
    'assess links list 1001 --csv > links.csv',
  ],
  jsonFields: LINK_FIELDS,
  v2: { run: (ctx, { testId }) => listLinksV2(ctx, testId), jsonFields: V2_LINK_FIELDS },
  showsAnswer: true,
  async run(ctx, { testId }) {
    const { testLinks } = await (await ctx.api()).listLinks(testId);
    await new Printer(ctx).list(testLinks as Array<Record<string, unknown>>, {
      columns: await forTable(ctx, LINK_COLUMNS, testLinks),
      fields: await LINK_FIELDS(),
    });
  },
});
