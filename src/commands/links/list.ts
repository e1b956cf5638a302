// links list: the test links of one test (./list.run.ts).
import { defineCommand, zx, arg } from '../../cli/command.js';
import { LINK_FIELDS } from './shared/view.js';
import { V2_LINK_FIELDS } from './shared/v2-fields.js';

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
  v2: { jsonFields: V2_LINK_FIELDS },
  showsAnswer: true,
  handler: () => import('./list.run.js'),
});
