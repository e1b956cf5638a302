// What `tests list|get --api v2 --json a,b` may name: the v2 wire fields (the declarations load
// these, not the v2 side).
import { fieldsOfAnswer } from '../../../cli/json-fields.js';
import type * as R2 from '../../../api/read/v2.js';
import { type Column } from '../../../output/printer.js';

// the fields a test and a test's detail share (each list below is checked against its own row type)
const SHARED = [
  { key: 'testId', header: 'Test ID', priority: 1, kind: 'id' },
  { key: 'testName', header: 'Name', priority: 2 },
  { key: 'testStatus', header: 'Status', priority: 3, kind: 'status' },
  { key: 'duration', header: 'Minutes', priority: 4 },
  { key: 'questions', header: 'Questions', priority: 5 },
] as const;

export const COLUMNS: Column<R2.V2Test>[] = [...SHARED];

export const DETAIL: Column<R2.V2TestDetail>[] = [...SHARED, { key: 'accessKey', header: 'Access key' }];

/** What `tests list|get --api v2 --json a,b` may name: the v2 wire fields. */
export const V2_TEST_FIELDS = fieldsOfAnswer('v2.listTests', COLUMNS);

export const V2_TEST_DETAIL_FIELDS = fieldsOfAnswer('v2.getTest', DETAIL);
