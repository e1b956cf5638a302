import { z } from 'zod';
import { defineCommand, zx } from '../../cli/command.js';
import { Printer } from '../../output/printer.js';
import { LINK_COLUMNS, LINK_FIELDS, linkJsonFields } from './view.js';
import { listLinksV2 } from '../v2/links.js';

export default defineCommand({
  name: 'list',
  args: ['<testId>'],
  description: 'List the test links of a test',
  examples: ['assess links list 1001', 'assess links list 1001 --json testLinkId,testLinkName', 'assess links list 1001 --csv > links.csv'],
  schema: z.object({ testId: zx.id('1001') }),
  jsonFields: linkJsonFields,
  showsAnswer: true,
  async run(ctx, { testId }) {
    if (ctx.globals.api === 'v2') return listLinksV2(ctx, testId);
    const { testLinks } = await (await ctx.api()).listLinks(testId);
    await new Printer(ctx).list(testLinks as Array<Record<string, unknown>>, { columns: LINK_COLUMNS, fields: LINK_FIELDS });
  },
});
