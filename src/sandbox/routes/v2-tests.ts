// v2: GET /v2/org/tests (page_size default 20, page_no default 1, testsCount) and GET /v2/org/tests/{testId}.
import type { FastifyInstance } from 'fastify';
import { parseWith } from '../../api/schemas/parse.js';
import { V2ListTestsQuery } from '../../api/schemas/v2.js';
import type { Store } from '../store.js';
import { v2fail, v2OwnedTest } from '../v2-replies.js';
import { ok, v2TestDetail, v2TestSummary } from '../v2-views.js';
import { route } from './operation.js';

export function registerV2TestRoutes(scope: FastifyInstance, store: Store): void {
  route(scope, 'v2.listTests', async (request, reply) => {
    const q = parseWith(V2ListTestsQuery, request.query ?? {});
    if (!q.ok) return v2fail(reply, 400, q.errors);
    const { page_no, page_size } = q.value;
    const all = store
      .tests()
      .filter((t) => t.accountId === request.accountId)
      .sort((a, b) => a.testId - b.testId);
    const tests = all.slice((page_no - 1) * page_size, page_no * page_size).map(v2TestSummary);
    return ok('Tests fetched successfully', { tests, testsCount: all.length });
  });

  route(scope, 'v2.getTest', async (request, reply) => {
    const test = v2OwnedTest(store, request, reply);
    if (!test) return reply;
    return ok('Test fetched successfully', v2TestDetail(test));
  });
}
