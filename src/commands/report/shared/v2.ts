// `report --api v2`: the v2 report, `--sections` the section scores, `--pdf` the PDF (same
// download rules as v3: temp file, %PDF- check, default name from the candidate).
import { downloadPdf } from './pdf.js';
import { HEADER, SECTION_COLUMNS } from './fields.js';
import type { Context } from '../../../context.js';
import { UsageError } from '../../../errors.js';
import { Printer } from '../../../output/printer.js';
import type { ReportInput } from './input.js';
import { v2Client } from '../../shared/v2/client.js';

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
