// v2: report, section report and PDF of an invitation (the same attempt v3 reports on).
import type { FastifyInstance } from 'fastify';
import type { ReportPdfs } from '../report-pdfs.js';
import { hasResult } from '../state-machine.js';
import type { Store } from '../store.js';
import { v2fail, v2OwnedInvitation } from '../v2-replies.js';
import { ok, v2Report, v2SectionReport } from '../v2-views.js';
import { route } from './operation.js';

export function registerV2ReportRoutes(scope: FastifyInstance, store: Store, pdfs: ReportPdfs): void {
  route(scope, 'v2.getReport', async (request, reply) => {
    const inv = v2OwnedInvitation(store, request, reply);
    if (!inv) return reply;
    return ok('Report fetched successfully', v2Report(store.test(inv.testId)!, inv));
  });

  route(scope, 'v2.getSectionReport', async (request, reply) => {
    const inv = v2OwnedInvitation(store, request, reply);
    if (!inv) return reply;
    return ok('Section report fetched successfully', v2SectionReport(store.test(inv.testId)!, inv));
  });

  route(scope, 'v2.getReportPdf', async (request, reply) => {
    const inv = v2OwnedInvitation(store, request, reply);
    if (!inv) return reply;
    if (!hasResult(inv.status))
      return v2fail(
        reply,
        400,
        `No report yet for test invitation id ${inv.testInvitationId}: the attempt is ${inv.status}.`,
      );
    const id = inv.testInvitationId;
    const pdf = await pdfs.pdfFor(inv);
    return reply
      .code(200)
      .header('content-type', 'application/pdf')
      .header('content-disposition', `attachment; filename="report-${id}.pdf"`)
      .send(pdf);
  });
}
