// The deprecated v2 API under /v2/org, in its own fastify scope: its own key check (x-api-key)
// and error shape ({statuscode, description}, see ../v2-replies.ts), sharing the store — and so
// the accounts, tests, links and invitations — with v3.
import type { FastifyInstance } from 'fastify';
import type { ReportPdfs } from '../report-pdfs.js';
import type { Store } from '../store.js';
import { authenticateV2, v2fail } from '../v2-replies.js';
import { registerV2LinkRoutes } from './v2-links.js';
import { registerV2RegisterRoutes } from './v2-register.js';
import { registerV2ReportRoutes } from './v2-reports.js';
import { registerV2TestRoutes } from './v2-tests.js';
import { API_PREFIX } from '../../api/operations/index.js';

export function registerV2Routes(app: FastifyInstance, store: Store, pdfs: ReportPdfs): void {
  app.register(
    async (scope) => {
      scope.addHook('onRequest', authenticateV2);
      scope.setErrorHandler((err: Error & { statusCode?: number; code?: string }, _request, reply) => {
        if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || err.statusCode === 413)
          return v2fail(reply, 413, 'Request body is larger than 1 MB.');
        const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
        return v2fail(reply, status, status === 500 ? `Sandbox internal error: ${err.message}` : err.message);
      });
      scope.setNotFoundHandler((request, reply) =>
        v2fail(reply, 404, `No such endpoint: ${request.method} ${request.url.split('?')[0]}`),
      );
      registerV2TestRoutes(scope, store);
      registerV2RegisterRoutes(scope, store);
      registerV2ReportRoutes(scope, store, pdfs);
      registerV2LinkRoutes(scope, store);
    },
    { prefix: API_PREFIX.v2 },
  );
}
