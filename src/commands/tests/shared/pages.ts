// Following the pages of GET /v3/tests. The spec does not show a total or the last page, so a
// page shorter than pageSize (or empty) ends the list; totalCount, when the service sends it,
// ends it too.
import type { TestSummary } from '../../../api/read/v3.js';
import type { V3Client } from '../../../api/v3.js';

export type { TestSummary };
export type V3ClientLike = Pick<V3Client, 'listTests'>;

/** Guards against a service that ignores pageNo and answers the same page forever. */
const MAX_PAGES = 100_000;

/**
 * Fetches the first page before returning (so a refused key fails before anything is printed),
 * then yields every row of every page from `start` on.
 */
export async function pagesOf(
  api: V3ClientLike,
  start: number,
  pageSize: number,
  warn: (message: string) => void,
): Promise<AsyncIterable<TestSummary>> {
  const first = await api.listTests({ pageNo: start, pageSize });
  async function* rows() {
    let res = first;
    let page = start;
    let seen = 0;
    let previousFirstId: string | undefined;
    for (;;) {
      const tests = res.tests;
      if (!tests.length) return;
      if (previousFirstId !== undefined && String(tests[0]!.testId) === previousFirstId) {
        warn(`page ${page} repeats page ${page - 1}; the service seems to ignore pageNo, so stopping here`);
        return;
      }
      previousFirstId = String(tests[0]!.testId);
      yield* tests;
      seen += tests.length;
      if (tests.length < pageSize || page - start + 1 >= MAX_PAGES) return;
      if (res.totalCount != null && (start - 1) * pageSize + seen >= res.totalCount) return;
      page += 1;
      res = await api.listTests({ pageNo: page, pageSize });
    }
  }
  return rows();
}
