// 4. GET /v3/reports/{id} (JSON) and 5. GET /v3/reports/{id}/pdf.
// The PDF URL authenticates like the API: the same X-API-KEY header, same account.
import type { FastifyInstance } from 'fastify';
import { parseWith, ReportQuery } from '../../api/schemas/index.js';
import { renderReportPdf } from '../pdf.js';
import { fail, invitationNotOwned, originOf, pathId } from '../replies.js';
import { buildReport } from '../scoring.js';
import { hasResult } from '../state-machine.js';
import type { Store } from '../store.js';

export function registerReportRoutes(app: FastifyInstance, store: Store): void {
  const config = { config: { auth: true, authStatus: 400, style: 'errors' } } as const;

  app.get('/v3/reports/:testInvitationId', config, async (request, reply) => {
    const id = pathId(request, reply, 'testInvitationId');
    if (id === null) return reply;
    const q = parseWith(ReportQuery, request.query ?? {});
    if (!q.ok) return fail(request, reply, 400, q.errors);
    const inv = store.ownedInvitation(request.accountId, id);
    if (!inv) return invitationNotOwned(request, reply, id);
    const test = store.tests.get(inv.testId)!;
    return buildReport(test, inv, q.value.reportType, `${originOf(request)}/v3/reports/${id}/pdf`);
  });

  app.get('/v3/reports/:testInvitationId/pdf', config, async (request, reply) => {
    const id = pathId(request, reply, 'testInvitationId');
    if (id === null) return reply;
    const inv = store.ownedInvitation(request.accountId, id);
    if (!inv) return invitationNotOwned(request, reply, id);
    if (!hasResult(inv.status))
      return fail(request, reply, 400, `No report yet for test invitation id ${id}: the attempt is ${inv.status}.`);
    const test = store.tests.get(inv.testId)!;
    const report = buildReport(test, inv, 3, `${originOf(request)}/v3/reports/${id}/pdf`);
    const pdf = await renderReportPdf(report, store.nowIso());
    return reply
      .code(200)
      .header('content-type', 'application/pdf')
      .header('content-disposition', `attachment; filename="report-${id}.pdf"`)
      .send(pdf);
  });
}
