// links get: one test link, for people or as the service's JSON (./get.run.ts).
import { defineCommand, zx, arg } from '../../cli/command.js';
import { LINK_FIELDS } from './shared/view.js';
import { V2_LINK_FIELDS } from './shared/v2-fields.js';

export default defineCommand({
  name: 'get',
  args: {
    testId: arg(() => zx.id('1001')),
    linkId: arg(() => zx.id('2001')),
  },
  description: 'Show one test link: status, type, proctoring, stakeholders and schedule',
  examples: ['assess links get 1001 5002', 'assess links get 1001 5002 --json invitationSchedule'],
  jsonFields: LINK_FIELDS,
  v2: { jsonFields: V2_LINK_FIELDS },
  showsAnswer: true,
  handler: () => import('./get.run.js'),
});
