// 13. GET and 14. POST (full replace) /v3/tests/{testId}/settings.
import type { FastifyInstance } from 'fastify';
import { applySettingsConstraints, parseWith, TestSettings } from '../../api/schemas/index.js';
import { fail, pathId, testNotOwned } from '../replies.js';
import type { Store } from '../store.js';
import { route, routeOf } from './operation.js';

export function registerSettingsRoutes(app: FastifyInstance, store: Store): void {
  route(app, 'v3.getSettings', async (request, reply) => {
    const testId = pathId(request, reply, 'testId');
    if (testId === null) return reply;
    const test = store.ownedTest(request.accountId, testId);
    if (!test) return testNotOwned(reply, testId);
    return store.settingsOf(testId);
  });

  app.route({
    ...routeOf('v3.updateSettings'),
    handler: async (request, reply) => {
      const testId = pathId(request, reply, 'testId');
      if (testId === null) return reply;
      const test = store.ownedTest(request.accountId, testId);
      if (!test) return testNotOwned(reply, testId);
      const body = parseWith(TestSettings, request.body ?? {});
      if (!body.ok) return fail(request, reply, 400, body.errors);
      // full replace; "allowing copy-paste disables the window violation popup" holds in what is stored
      const settings = applySettingsConstraints(body.value);
      store.setSettings(testId, settings);
      test.testName = settings.testSettings.testName; // the test's name is one of its settings
      store.changed({ test });
      await store.flush();
      return reply.code(201).send(settings);
    },
  });
}
