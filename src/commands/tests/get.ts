// tests get: one test with its sections and skills as tables (./get.run.ts).
import { defineCommand, zx, arg } from '../../cli/command.js';
import { fieldsOfAnswer } from '../../cli/json-fields.js';
import type * as R from '../../api/read/v3.js';
import type { Column } from '../../output/printer.js';
import { V2_TEST_DETAIL_FIELDS } from './shared/v2-fields.js';

export const TEST_HEADER: Column<R.TestDetail>[] = [
  { key: 'testId', header: 'Test ID', kind: 'id' },
  { key: 'testName', header: 'Name' },
  { key: 'testStatus', header: 'Status', kind: 'status' },
  { key: 'duration', header: 'Minutes' },
  { key: 'questions', header: 'Questions' },
  { key: 'totalPoints', header: 'Points' },
  { key: 'accessKey', header: 'Access key' },
  { key: 'defaultTestLinkId', header: 'Default link', kind: 'id' },
];

/** What `--json a,b` may name: the test object's wire fields (sections included). */
const FIELDS = fieldsOfAnswer('v3.getTest', TEST_HEADER);

export default defineCommand({
  name: 'get',
  args: {
    testId: arg(() => zx.id('1001')),
  },
  description: 'Show a test: name, status, duration, questions and its sections (and skills) as tables',
  examples: ['assess tests get 1001', 'assess tests get 1001 --json', 'assess tests get 1001 --json testId,sections'],
  jsonFields: FIELDS,
  v2: { jsonFields: V2_TEST_DETAIL_FIELDS },
  showsAnswer: true,
  handler: () => import('./get.run.js'),
});
