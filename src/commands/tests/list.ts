// tests list: one page, or with --all every page from --page on (./list.run.ts).
import * as z from 'zod/mini';
import { defineCommand, zx, flag } from '../../cli/command.js';
import { fieldsOfAnswer } from '../../cli/json-fields.js';
import type * as R from '../../api/read/v3.js';
import type { Column } from '../../output/printer.js';
import { V2_TEST_FIELDS } from './shared/v2-fields.js';

export const TEST_COLUMNS: Column<R.TestSummary>[] = [
  { key: 'testId', header: 'Test ID', priority: 1, kind: 'id' },
  { key: 'testName', header: 'Name', priority: 2 },
  { key: 'testStatus', header: 'Status', priority: 3, kind: 'status' },
  { key: 'duration', header: 'Minutes', priority: 4 },
  { key: 'questions', header: 'Questions', priority: 5 },
];

/** What `--json a,b` may name: a test's wire fields (the rows are the service's own objects). */
export const TEST_FIELDS = fieldsOfAnswer('v3.listTests', TEST_COLUMNS);

export default defineCommand({
  name: 'list',
  description: 'List the tests of the account (one page; --all follows every page)',
  examples: [
    'assess tests list',
    'assess tests list --page 2 --page-size 50',
    'assess tests list --all --ndjson',
    'assess tests list --json testId,testName',
  ],
  flags: {
    page: flag('page number, from 1 (default 1)', { value: 'n' }, () => z._default(zx.int(1, 1_000_000, 2), 1)),
    pageSize: flag('tests per page, 1-100 (default 20)', { value: 'n' }, () => z._default(zx.int(1, 100, 50), 20)),
    all: flag('follow pages until the list is exhausted (starting at --page)', () => z._default(z.boolean(), false)),
  },
  jsonFields: TEST_FIELDS,
  v2: { jsonFields: V2_TEST_FIELDS },
  showsAnswer: true,
  handler: () => import('./list.run.js'),
});
