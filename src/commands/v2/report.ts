// `report --api v2`: the v2 report, `--sections` the section scores, `--pdf` the PDF (same
// download rules as v3: temp file, %PDF- check, default name from the candidate).
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { Printer } from '../../output/printer.js';
import { downloadPdf } from '../report/pdf.js';
import type { ReportInput } from '../report/show.js';
import { v2Client } from './client.js';

export async function reportV2(ctx: Context, input: ReportInput & { sections?: boolean }): Promise<void> {
  if (input.type) throw new UsageError('--type: v2 reports have no report types; use --sections for the section scores, or v3 (without --api v2)');
  if (input.sections && input.pdf) throw new UsageError('--sections: cannot be combined with --pdf');
  const api = await v2Client(ctx);
  const id = input.invitationId;
  if (input.pdf)
    return downloadPdf(ctx, id, {
      output: input.output,
      force: Boolean(input.force),
      source: { getReportPdf: (i) => api.getReportPdf(i), candidateName: async (i) => ((r) => r.fullName ?? r.emailId)(await api.getReport(i)) },
    });
  const printer = new Printer(ctx);
  if (input.sections) {
    const rows = await api.getSectionReport(id);
    await printer.list(rows as Array<Record<string, unknown>>, {
      columns: [
        { key: 'sectionName', header: 'Section' },
        { key: 'candidateScore', header: 'Score' },
        { key: 'sectionScore', header: 'Out of' },
      ],
    });
    return;
  }
  const report = await api.getReport(id);
  printer.object(report as Record<string, unknown>, {
    fields: [
      { key: 'testInvitationId', header: 'Invitation', kind: 'id' },
      { key: 'fullName', header: 'Candidate' },
      { key: 'emailId', header: 'E-mail' },
      { key: 'testName', header: 'Test' },
      { key: 'testStatus', header: 'Status', kind: 'status' },
      { key: 'reportStatus', header: 'Report' },
      { key: 'attemptedOn', header: 'Attempted' },
      { key: 'score', header: 'Score' },
      { key: 'totalScore', header: 'Out of' },
      { key: 'timeTaken', header: 'Minutes used' },
      { key: 'duration', header: 'Minutes' },
      { key: 'questions', header: 'Questions' },
      { key: 'wv', header: 'Window violations' },
      { key: 'tv', header: 'Seconds outside' },
    ],
  });
}
