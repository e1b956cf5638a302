import { defineCommand, zx, arg } from '../../cli/command.js';
import { LINK_FIELDS, printLink } from './shared/view.js';
import { getLinkV2, V2_LINK_FIELDS } from './shared/v2.js';

export default defineCommand({
  name: 'get',
  args: {
    testId: arg(() => zx.id('1001')),
    linkId: arg(() => zx.id('2001')),
  },
  description: 'Show one test link: status, type, proctoring, stakeholders and schedule',
  examples: ['assess links get 1001 5002', 'assess links get 1001 5002 --json invitationSchedule'],
  jsonFields: LINK_FIELDS,
  v2: { run: (ctx, { testId, linkId }) => getLinkV2(ctx, testId, linkId), jsonFields: V2_LINK_FIELDS },
  showsAnswer: true,
  async run(ctx, { testId, linkId }) {
    await printLink(ctx, await (await ctx.api()).getLink(testId, linkId));
  },
});
