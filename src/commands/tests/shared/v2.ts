// `tests list|get --api v2`: GET /v2/org/tests (page_no/page_size, testsCount) and /v2/org/tests/{id}.
import type { TestsListResponse } from '../../../api/schemas/index.js';
import type { Context } from '../../../context.js';
import { Printer } from '../../../output/printer.js';
import { pagesOf, type V3ClientLike } from './pages.js';
import { v2Client } from '../../shared/v2/client.js';
import { COLUMNS, DETAIL } from './v2-fields.js';

export async function listTestsV2(ctx: Context, o: { page: number; pageSize: number; all: boolean }): Promise<void> {
  const api = await v2Client(ctx);
  // the v3 pager follows pages until a short page or the total; v2 calls its total testsCount
  const pager: V3ClientLike = {
    listTests: async (q) => {
      const r = await api.listTests(q);
      return { tests: r.tests, totalCount: r.testsCount } as TestsListResponse;
    },
  };
  const printer = new Printer(ctx);
  if (!o.all) {
    const { tests } = await pager.listTests({ pageNo: o.page, pageSize: o.pageSize });
    await printer.list(tests, { columns: COLUMNS });
    return;
  }
  const rows = await pagesOf(pager, o.page, o.pageSize, (m) => ctx.warn(m));
  await printer.list(rows, { columns: COLUMNS });
}

export async function getTestV2(ctx: Context, testId: string): Promise<void> {
  const test = await (await v2Client(ctx)).getTest(testId);
  await new Printer(ctx).object(test, {
    fields: DETAIL,
    sections: [
      {
        title: 'Sections',
        rows: test.sections ?? [],
        columns: [
          { key: 'sectionName', header: 'Section', priority: 1 },
          { key: 'sectionType', header: 'Type', priority: 3 },
          { key: 'questions', header: 'Questions', priority: 5 },
          { key: 'duration', header: 'Minutes', priority: 4 },
        ],
      },
    ],
  });
}
