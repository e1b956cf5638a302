import * as z from 'zod';
import { defineCommand, zx } from '../../cli/command.js';
import { LINK_FIELDS, printLink } from './shared/view.js';
import { getLinkV2, V2_LINK_FIELDS } from './shared/v2.js';

export default defineCommand({
  name: 'get',
  args: ['<testId>', '<linkId>'],
  description: 'Show one test link: status, type, proctoring, stakeholders and schedule',
  examples: ['assess links get 1001 5002', 'assess links get 1001 5002 --json invitationSchedule'],
  schema: () => z.object({ testId: zx.id('1001'), linkId: zx.id('2001') }),
  jsonFields: LINK_FIELDS,
  v2: { run: (ctx, { testId, linkId }) => getLinkV2(ctx, testId, linkId), jsonFields: V2_LINK_FIELDS },
  showsAnswer: true,
  async run(ctx, { testId, linkId }) {
    await printLink(ctx, await (await ctx.api()).getLink(testId, linkId));
  },
});
