// 1. GET /v3/tests (paged) and 2. GET /v3/tests/{testId}.
import type { FastifyInstance } from 'fastify';
import { ListTestsQuery, parseWith } from '../../api/schemas/index.js';
import { fail, pathId, testNotOwned } from '../replies.js';
import type { Store } from '../store.js';
import { testDetailView, testSummaryView } from '../views.js';
import { route } from './operation.js';

export function registerTestRoutes(app: FastifyInstance, store: Store): void {
  route(app, 'v3.listTests', async (request, reply) => {
    const q = parseWith(ListTestsQuery, request.query ?? {});
    if (!q.ok) return fail(request, reply, 400, q.errors);
    const { pageNo, pageSize } = q.value;
    const all = store
      .tests()
      .filter((t) => t.accountId === request.accountId)
      .sort((a, b) => a.testId - b.testId);
    return {
      tests: all.slice((pageNo - 1) * pageSize, pageNo * pageSize).map(testSummaryView),
      pageNo,
      pageSize,
      totalCount: all.length,
    };
  });

  route(app, 'v3.getTest', async (request, reply) => {
    const testId = pathId(request, reply, 'testId');
    if (testId === null) return reply;
    const test = store.ownedTest(request.accountId, testId);
    if (!test) return testNotOwned(reply, testId);
    return testDetailView(test);
  });
}
