// `assess report <invitationId> [--type summary|skills|both]` (operation 4), and with `--pdf`
// the PDF download (operation 5, shared/pdf.ts). The `report` noun can still take verbs (export).
import { Report } from '../../api/schemas/index.js';
import { defineCommand } from '../../cli/command.js';
import { fieldsOf } from '../../cli/json-fields.js';
import { Printer, type Column } from '../../output/printer.js';
import { downloadPdf, PDF_FIELDS } from './shared/pdf.js';
import { reportV2, v2ReportFields } from '../shared/v2/report.js';
import { reportSchema } from './shared/input.js';

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
const REPORT_FIELDS = fieldsOf(Report, HEADER);

type Row = Record<string, unknown>;

/** Skills at the top level (type 2) or inside sections (type 3), with their section named. */
export function skillRows(report: Row): Row[] {
  const top = Array.isArray(report.Skills) ? (report.Skills as Row[]) : [];
  const nested = Array.isArray(report.sections)
    ? (report.sections as Row[]).flatMap((s) =>
        Array.isArray(s.Skills) ? (s.Skills as Row[]).map((k) => ({ sectionName: s.sectionName, sectionId: s.sectionId, ...k })) : [],
      )
    : [];
  return [...top, ...nested];
}

export default defineCommand({
  name: 'report',
  args: ['<invitationId>'],
  description: "Show a candidate's report (summary, sections, skills) or download it as a PDF",
  examples: [
    'assess report 900001',
    'assess report 900001 --type both',
    'assess report 900001 --json candidatePoints,totalTestPoints,PerformanceCategory',
    'assess report 900001 --pdf               # report-<candidate>-900001.pdf in this directory',
    'assess report 900001 --pdf -o - > r.pdf',
  ],
  options: (cmd) =>
    cmd
      .option('--type <type>', 'summary (sections), skills, or both (default summary)')
      .option('--pdf', 'download the PDF report instead')
      .option('-o, --output <file>', 'with --pdf: file or directory to write to, or - for standard output')
      .option('--force', 'with --pdf: overwrite an existing file')
      .option('--sections', 'v2 only (--api v2): the section scores (GET /v2/org/report/{id}/sections)'),
  schema: reportSchema,
  jsonFields: (input) => (input.pdf ? PDF_FIELDS : REPORT_FIELDS),
  v2: {
    run: (ctx, input) => reportV2(ctx, input),
    jsonFields: (input) => v2ReportFields(input),
    only: { sections: 'in v3 the summary report (the default) shows the sections' },
  },
  showsAnswer: true,
  async run(ctx, input) {
    if (input.pdf) return downloadPdf(ctx, input.invitationId, { output: input.output, force: Boolean(input.force) });
    const reportType = REPORT_TYPES[input.type ?? 'summary'];
    const report = (await (await ctx.api()).getReport(input.invitationId, reportType)) as Row;
    const sections = Array.isArray(report.sections) ? (report.sections as Row[]) : [];
    const skills = skillRows(report);
    new Printer(ctx).object(report, {
      fields: HEADER,
      sections: [
        ...(reportType !== 2 ? [{ title: 'Sections', rows: sections, columns: SECTION_COLUMNS }] : []),
        ...(reportType !== 1 ? [{ title: 'Skills', rows: skills, columns: SKILL_COLUMNS }] : []),
      ],
    });
  },
});
