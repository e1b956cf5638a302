// `assess report <invitationId>`: a candidate's report, or with --pdf its PDF (./command.run.ts).
// The `report` noun also takes verbs (export, stats).
import { defineCommand } from '../../cli/command.js';
import { fieldsOfAnswer } from '../../cli/json-fields.js';
import { PDF_FIELDS, v2ReportFields } from './shared/fields.js';
import type { Column } from '../../output/printer.js';
import { checkReport, REPORT_ARGS, REPORT_FLAGS } from './shared/input.js';

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

/** What `--json a,b` may name: the report's wire fields (sections, Skills included). */
const REPORT_FIELDS = fieldsOfAnswer('v3.getReport', HEADER);

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
    jsonFields: (input) => v2ReportFields(input),
    only: { sections: 'in v3 the summary report (the default) shows the sections' },
  },
  showsAnswer: true,
  handler: () => import('./command.run.js'),
});
