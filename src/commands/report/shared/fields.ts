// What `report --json a,b` may name beside the v3 report's own fields: where a PDF went, and
// the v2 report's and section scores' fields. Apart from the download and the v2 side, so the
// declaration loads neither.
import { type FieldList, fieldsOfAnswer } from '../../../cli/json-fields.js';
import type { Column } from '../../../output/printer.js';
import type { ReportInput } from './input.js';

export interface PdfSaved {
  testInvitationId: number;
  file: string;
  bytes: number;
}

/** What `report --pdf --json a,b` may name: where the PDF went (printed under --json/--ndjson/--csv). */
export const PDF_COLUMNS: Column<PdfSaved>[] = [
  { key: 'testInvitationId', header: 'Invitation' },
  { key: 'file', header: 'File' },
  { key: 'bytes', header: 'Bytes' },
];
export const PDF_FIELDS = PDF_COLUMNS.map((c) => c.key);

export const SECTION_COLUMNS: Column[] = [
  { key: 'sectionName', header: 'Section' },
  { key: 'candidateScore', header: 'Score' },
  { key: 'sectionScore', header: 'Out of' },
];
export const HEADER: Column[] = [
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
