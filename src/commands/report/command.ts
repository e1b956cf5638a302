// `assess report <invitationId> [--type summary|skills|both]` (operation 4), and with `--pdf`
// the PDF download (operation 5, shared/pdf.ts). The `report` noun can still take verbs (export).
import { answerFields } from '../../api/answer-fields.js';
import { defineCommand } from '../../cli/command.js';
import { fieldsOfAnswer } from '../../cli/json-fields.js';
import { downloadPdf, PDF_FIELDS } from './shared/pdf.js';
import { Printer, type Column } from '../../output/printer.js';
import { wantsAscii } from '../../output/bars.js';
import { reportV2, v2ReportFields } from './shared/v2.js';
import { checkReport, REPORT_ARGS, REPORT_FLAGS } from './shared/input.js';
import { skillRows } from './shared/skills.js';
import { reportShape, SUMMARY_COLUMNS, summaryRow } from './shared/summary-row.js';

const REPORT_TYPES = { summary: 1, skills: 2, both: 3 } as const;

// Raw service values in every column: TSV and CSV rows stay machine-readable.
export const HEADER: Column[] = [
  { key: 'testInvitationId', header: 'Invitation', kind: 'id' },
  { key: 'candidateName', header: 'Candidate' },
  { key: 'candidateEmail', header: 'E-mail' },
  { key: 'testName', header: 'Test' },
  { key: 'status', header: 'Status', kind: 'status' },
  { key: 'attemptedOn', header: 'Attempted', kind: 'date' },
  { key: 'candidatePoints', header: 'Points' },
  { key: 'totalTestPoints', header: 'Out of', priority: 3 },
  { key: 'scorePercentage', header: 'Percentage' },
  { key: 'PerformanceCategory', header: 'Performance' },
];

export const SECTION_COLUMNS: Column[] = [
  { key: 'sectionId', header: 'Section id', priority: 6, kind: 'id' },
  { key: 'sectionName', header: 'Section', priority: 1 },
  { key: 'noOfQue', header: 'Questions', priority: 4 },
  { key: 'candidateScore', header: 'Score', priority: 2 },
  { key: 'sectionScore', header: 'Out of', priority: 3 },
  { key: 'sectionTimeTaken', header: 'Seconds used', priority: 5 },
];

export const SKILL_COLUMNS: Column[] = [
  { key: 'sectionName', header: 'Section', priority: 1 },
  { key: 'qbId', header: 'Skill id', priority: 6, kind: 'id' },
  { key: 'qbName', header: 'Skill', priority: 1 },
  { key: 'noOfQue', header: 'Questions', priority: 4 },
  { key: 'candidateQbScore', header: 'Score', priority: 2 },
  { key: 'qbScore', header: 'Out of', priority: 3 },
];

/** What `--json a,b` may name: the report's wire fields (sections, Skills included). */
const REPORT_FIELDS = fieldsOfAnswer('v3.getReport', HEADER);

type Row = Record<string, unknown>;

/**
 * --csv: one row, the fixed columns of report export's summary.csv in its order (one list:
 * shared/summary-row.ts), `pdf` empty as in an export without --pdf (no PDF is saved here).
 * Sections and skills are the export's sections.csv and skills.csv, or --json.
 */
const SUMMARY_CSV: Column[] = SUMMARY_COLUMNS.map((key) => ({ key, header: key }));

export default defineCommand({
  name: 'report',
  args: REPORT_ARGS,
  description: "Show a candidate's report (summary, sections, skills) or download it as a PDF",
  examples: [
    'assess report 900001',
    'assess report 900001 --type both',
    "assess report 900001 --csv               # one row: the columns of report export's summary.csv",
    'assess report 900001 --json candidatePoints,totalTestPoints,PerformanceCategory',
    'assess report 900001 --pdf               # report-<candidate>-900001.pdf in this directory',
    'assess report 900001 --pdf -o - > r.pdf',
  ],
  flags: REPORT_FLAGS,
  check: checkReport,
  jsonFields: (input) => (input.pdf ? PDF_FIELDS : REPORT_FIELDS()),
  v2: {
    run: (ctx, input) => reportV2(ctx, input),
    jsonFields: (input) => v2ReportFields(input),
    only: { sections: 'in v3 the summary report (the default) shows the sections' },
  },
  showsAnswer: true,
  async run(ctx, input) {
    if (input.pdf)
      return downloadPdf(ctx, input.invitationId, {
        output: input.output,
        force: Boolean(input.force),
        maxBytes: input.maxSize,
      });
    const { output, query } = ctx.globals;
    // The terminal picture, --csv and --ndjson show sections and skills: without --type they ask
    // for both. TSV and --json keep the service's default (summary) as before.
    const picture = output === 'table' && !query;
    const full = picture || output === 'ndjson';
    const reportType = REPORT_TYPES[input.type ?? (full ? 'both' : 'summary')];
    const report = (await (await ctx.api()).getReport(input.invitationId, reportType)) as Row;
    const printer = new Printer(ctx);
    if (picture) {
      const { renderPicture } = await import('./shared/picture.js');
      ctx.io.stdout.write(
        renderPicture(report, {
          width: ctx.io.columns,
          ascii: wantsAscii(ctx.env, input.ascii),
          c: printer.c,
          zone: printer.zone,
        }),
      );
      return;
    }
    const fields = await answerFields('v3.getReport');
    if (output === 'csv' && !query)
      return printer.object<Row>(summaryRow(report, {}, null, fields), { fields: SUMMARY_CSV });
    const sections = Array.isArray(report.sections) ? (report.sections as Row[]) : [];
    const skills = skillRows(report);
    // --json: the report's one shape (every declared field), also each row of an export's summary.json
    await printer.object<Row>(reportShape(report, fields), {
      fields: HEADER,
      sections: [
        ...(reportType !== 2 ? [{ title: 'Sections', rows: sections, columns: SECTION_COLUMNS }] : []),
        ...(reportType !== 1 ? [{ title: 'Skills', rows: skills, columns: SKILL_COLUMNS }] : []),
      ],
    });
  },
});
