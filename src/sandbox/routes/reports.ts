// 4. GET /v3/reports/{id} (JSON) and 5. GET /v3/reports/{id}/pdf.
// The PDF URL authenticates like the API: the same X-API-KEY header, same account.
import type { FastifyInstance } from 'fastify';
import { parseWith, ReportQuery, type ReportType } from '../../api/schemas/index.js';
import type { ReportPdfs } from '../report-pdfs.js';
import { fail, invitationNotOwned, originOf, pathId } from '../replies.js';
import { buildReport } from '../scoring.js';
import { hasResult } from '../state-machine.js';
import type { Store } from '../store.js';
import { route } from './operation.js';

const FAST_TYPES: Record<string, ReportType> = { '1': 1, '2': 2, '3': 3 };

/** reportType from the query: the common values without zod, anything else through the schema. */
function reportTypeOf(query: unknown): ReportType | { errors: string[] } {
  const raw = (query as { reportType?: string } | undefined)?.reportType;
  if (raw === undefined) return 1;
  const fast = FAST_TYPES[raw];
  if (fast) return fast;
  const q = parseWith(ReportQuery, query);
  return q.ok ? q.value.reportType : { errors: q.errors };
}

export function registerReportRoutes(app: FastifyInstance, store: Store, pdfs: ReportPdfs): void {
  const reportCache = new Map<string, { mutation: string; json: string }>();
  route(app, 'v3.getReport', async (request, reply) => {
    const id = pathId(request, reply, 'testInvitationId');
    if (id === null) return reply;
    const reportType = reportTypeOf(request.query);
    if (typeof reportType !== 'number') return fail(request, reply, 400, reportType.errors);
    const inv = store.ownedInvitation(request.accountId, id);
    if (!inv) return invitationNotOwned(request, reply, id);
    // the hot path of the benchmark: serialised reports are cached until the state changes
    const origin = originOf(request);
    const key = `${id}|${reportType}|${origin}`;
    const cached = reportCache.get(key);
    const mutation = store.mutations;
    if (cached && cached.mutation === mutation) return reply.type('application/json; charset=utf-8').send(cached.json);
    const test = store.test(inv.testId)!;
    const json = JSON.stringify(buildReport(test, inv, reportType, `${origin}/v3/reports/${id}/pdf`));
    if (reportCache.size >= 1000) reportCache.clear();
    reportCache.set(key, { mutation, json });
    return reply.type('application/json; charset=utf-8').send(json);
  });

  route(app, 'v3.getReportPdf', async (request, reply) => {
    const id = pathId(request, reply, 'testInvitationId');
    if (id === null) return reply;
    const inv = store.ownedInvitation(request.accountId, id);
    if (!inv) return invitationNotOwned(request, reply, id);
    if (!hasResult(inv.status))
      return fail(request, reply, 400, `No report yet for test invitation id ${id}: the attempt is ${inv.status}.`);
    // generated when the attempt finished; served from the cache (byte-identical to a fresh render)
    const pdf = await pdfs.pdfFor(inv);
    return reply
      .code(200)
      .header('content-type', 'application/pdf')
      .header('content-disposition', `attachment; filename="report-${id}.pdf"`)
      .send(pdf);
  });
}
