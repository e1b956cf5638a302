// One attempt's row of the export summary, and its CSV columns: what `report export`'s
// summary.csv holds and, for one report, `report <id> --csv` prints (the same columns, in the
// same order). Kept apart from the writer (export-rows.ts), which loads node:crypto.
import { skillRows } from './skills.js';

export type SummaryRow = Record<string, unknown> & {
  testInvitationId: number | string;
  sections: Array<{ sectionId: unknown; sectionName: string; candidateScore: unknown; sectionScore: unknown }>;
  skills: Array<{ qbId: unknown; qbName: string; sectionName?: unknown; candidateQbScore: unknown; qbScore: unknown }>;
  pdf: string | null;
};

type Row = Record<string, unknown>;

/** Fixed columns, named as the service names them. */
export const SUMMARY_FIELDS = [
  'testInvitationId',
  'testId',
  'candidateName',
  'candidateEmail',
  'testName',
  'status',
  'candidatePoints',
  'totalTestPoints',
  'scorePercentage',
  'PerformanceCategory',
  'attemptedOn',
] as const;

export function summaryRow(report: Row, attempt: Row, pdf: string | null): SummaryRow {
  const row: Row = {};
  for (const f of SUMMARY_FIELDS) row[f] = report[f] ?? null;
  row.candidateName ??= attempt.name ?? null;
  const sections = (Array.isArray(report.sections) ? (report.sections as Row[]) : []).map((s) => ({
    sectionId: s.sectionId,
    sectionName: String(s.sectionName),
    candidateScore: s.candidateScore,
    sectionScore: s.sectionScore,
  }));
  const skills = skillRows(report).map((k) => ({
    qbId: k.qbId,
    qbName: String(k.qbName),
    sectionName: k.sectionName,
    candidateQbScore: k.candidateQbScore,
    qbScore: k.qbScore,
  }));
  return { ...row, sections, skills, pdf } as SummaryRow;
}

/** CSV columns: the fixed ones, `section:<name>` and `skill:<name>` (first-seen order), pdf. */
export function csvColumns(rows: SummaryRow[]): string[] {
  const sections = new Set<string>();
  const skills = new Set<string>();
  for (const r of rows) {
    for (const s of r.sections) sections.add(`section:${s.sectionName}`);
    for (const k of r.skills) skills.add(`skill:${k.qbName}`);
  }
  return [...SUMMARY_FIELDS, ...sections, ...skills, 'pdf'];
}

/** The row's cells under `columns` (a section's or skill's cell is the candidate's score). */
export function csvValues(row: SummaryRow, columns: readonly string[]): unknown[] {
  const bySection = new Map(row.sections.map((s) => [`section:${s.sectionName}`, s.candidateScore]));
  const bySkill = new Map(row.skills.map((k) => [`skill:${k.qbName}`, k.candidateQbScore]));
  return columns.map((c) =>
    c.startsWith('section:') ? bySection.get(c) : c.startsWith('skill:') ? bySkill.get(c) : row[c],
  );
}
