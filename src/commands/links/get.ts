import { z } from 'zod';
import { defineCommand, zx } from '../../cli/command.js';
import { linkJsonFields, printLink } from './view.js';
import { getLinkV2 } from '../v2/links.js';

export default defineCommand({
  name: 'get',
  args: ['<testId>', '<linkId>'],
  description: 'Show one test link: status, type, proctoring, stakeholders and schedule',
  examples: ['assess links get 1001 2001', 'assess links get 1001 2001 --json invitationSchedule'],
  schema: z.object({ testId: zx.id('1001'), linkId: zx.id('2001') }),
  jsonFields: linkJsonFields,
  showsAnswer: true,
  async run(ctx, { testId, linkId }) {
    if (ctx.globals.api === 'v2') return getLinkV2(ctx, testId, linkId);
    printLink(ctx, await (await ctx.api()).getLink(testId, linkId));
  },
});
