// `report --api v2`: the v2 report, `--sections` the section scores, `--pdf` the PDF (same
// download rules as v3: temp file, %PDF- check, default name from the candidate).
import { type FieldList, fieldsOfAnswer } from '../../../cli/json-fields.js';
import { downloadPdf, PDF_FIELDS } from './pdf.js';
import type { Context } from '../../../context.js';
import { UsageError } from '../../../errors.js';
import { Printer, type Column } from '../../../output/printer.js';
import type { ReportInput } from './input.js';
import { v2Client } from '../../shared/v2/client.js';

const SECTION_COLUMNS: Column[] = [
  { key: 'sectionName', header: 'Section' },
  { key: 'candidateScore', header: 'Score' },
  { key: 'sectionScore', header: 'Out of' },
];
const HEADER: Column[] = [
  { key: 'testInvitationId', header: 'Invitation', kind: 'id' },
  { key: 'fullName', header: 'Candidate' },
  { key: 'emailId', header: 'E-mail' },
  { key: 'testName', header: 'Test' },
  { key: 'testStatus', header: 'Status', kind: 'status' },
  { key: 'reportStatus', header: 'Report' },
  { key: 'attemptedOn', header: 'Attempted', kind: 'date' },
  { key: 'score', header: 'Score' },
  { key: 'totalScore', header: 'Out of' },
  { key: 'timeTaken', header: 'Minutes used' },
  { key: 'duration', header: 'Minutes' },
  { key: 'questions', header: 'Questions' },
  { key: 'wv', header: 'Window violations' },
  { key: 'tv', header: 'Seconds outside' },
];
const SECTION_FIELDS = fieldsOfAnswer('v2.getSectionReport', SECTION_COLUMNS);
const REPORT_FIELDS = fieldsOfAnswer('v2.getReport', HEADER);

/** What `report --api v2 --json a,b` may name: the v2 report, its section scores, or the PDF's file. */
export async function v2ReportFields(input: Pick<ReportInput, 'pdf' | 'sections'>): Promise<FieldList> {
  if (input.pdf) return PDF_FIELDS;
  return input.sections ? SECTION_FIELDS() : REPORT_FIELDS();
}

export async function reportV2(ctx: Context, input: ReportInput & { sections?: boolean }): Promise<void> {
  if (input.type)
    throw new UsageError(
      '--type: v2 reports have no report types; use --sections for the section scores, or v3 (without --api v2)',
    );
  if (input.sections && input.pdf) throw new UsageError('--sections: cannot be combined with --pdf');
  const api = await v2Client(ctx);
  const id = input.invitationId;
  if (input.pdf)
    return downloadPdf(ctx, id, {
      output: input.output,
      force: Boolean(input.force),
      maxBytes: input.maxSize,
      source: {
        getReportPdf: (i) => api.getReportPdf(i),
        candidateName: async (i) => ((r) => r.fullName ?? r.emailId)(await api.getReport(i)),
      },
    });
  const printer = new Printer(ctx);
  if (input.sections) {
    const rows = await api.getSectionReport(id);
    await printer.list(rows as Array<Record<string, unknown>>, { columns: SECTION_COLUMNS });
    return;
  }
  const report = await api.getReport(id);
  await printer.object(report as Record<string, unknown>, { fields: HEADER });
}
