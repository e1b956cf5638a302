// One report's shape, for every output that is not a picture: `report --json` prints it,
// `report export --format json|ndjson` writes one per attempt (plus `pdf`), and the CSV files
// have fixed columns cut from it — summary.csv (and `report --csv`) one row per attempt,
// sections.csv and skills.csv one row per attempt and section or skill (long format), so no
// night's file has columns another night's lacks. Field names are the service's, the contract
// scripts read. Kept apart from the writer (export-rows.ts), which loads node:crypto.
import { skillRows } from './skills.js';

type Row = Record<string, unknown>;

/** A report as `report --json` prints it: every declared field, then what else the service sent. */
export type ReportShape = Row & { testInvitationId: unknown; sections: unknown; Skills: unknown };
/** A row of summary.json: the report's shape and the PDF saved beside it (a name, or null). */
export type SummaryRow = ReportShape & { pdf: string | null };

/** summary.csv's columns (and `report --csv`'s), named as the service names them. */
export const SUMMARY_COLUMNS = [
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
  'pdf',
] as const;
/** Who a long-format row belongs to. */
const WHO = ['testInvitationId', 'candidateEmail', 'candidateName'] as const;
export const SECTION_COLUMNS = [
  ...WHO,
  'sectionId',
  'sectionName',
  'noOfQue',
  'candidateScore',
  'sectionScore',
  'sectionTime',
  'sectionTimeTaken',
] as const;
export const SKILL_COLUMNS = [
  ...WHO,
  'sectionId',
  'sectionName',
  'qbId',
  'qbName',
  'noOfQue',
  'candidateQbScore',
  'qbScore',
] as const;

const ZONELESS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;

/**
 * Every declared field of a report (null when the service left it out), in the spec's order, then
 * the service's extra fields. `attemptedOn` without a zone (as production sends it) is UTC and
 * written so (`…Z`): files and JSON say their times in ISO 8601 UTC. `fields`: the report's declared
 * fields (`answerFields('v3.getReport')`), passed in so that loading this file builds no schema.
 */
export function reportShape(report: Row, fields: readonly string[]): ReportShape {
  const out: Row = {};
  for (const f of fields) out[f] = report[f] ?? null;
  for (const [k, v] of Object.entries(report)) if (!(k in out)) out[k] = v;
  if (typeof out.attemptedOn === 'string' && ZONELESS.test(out.attemptedOn)) out.attemptedOn += 'Z';
  return out as ReportShape;
}

/** One attempt's row of the export: the report (its name and e-mail from the listing if it lacks them), the PDF. */
export function summaryRow(report: Row, attempt: Row, pdf: string | null, fields: readonly string[]): SummaryRow {
  const row = reportShape(report, fields) as SummaryRow;
  row.candidateName ??= (attempt.name as string | undefined) ?? null;
  row.candidateEmail ??= (attempt.email as string | undefined) ?? null;
  row.pdf = pdf;
  return row;
}

/**
 * A row an earlier version journaled (`sections` cut to four fields, `skills` flattened): read
 * into today's shape, so a --since-last-run summary keeps one shape across an upgrade.
 */
export function journaledRow(row: Row, fields: readonly string[]): SummaryRow {
  const { skills, ...rest } = row;
  const upgraded = rest.Skills === undefined && Array.isArray(skills) ? { ...rest, Skills: skills } : row;
  return summaryRow(upgraded, {}, typeof row.pdf === 'string' ? row.pdf : null, fields);
}

const arr = (v: unknown): Row[] => (Array.isArray(v) ? v.filter((x): x is Row => !!x && typeof x === 'object') : []);

/** summary.csv's cells of one row. */
export const summaryCells = (row: Row): unknown[] => SUMMARY_COLUMNS.map((c) => row[c] ?? null);

/** sections.csv's rows of one attempt. */
export function sectionCells(row: Row): unknown[][] {
  return arr(row.sections).map((s) =>
    SECTION_COLUMNS.map((c) => ((WHO as readonly string[]).includes(c) ? row[c] : s[c]) ?? null),
  );
}

/** skills.csv's rows of one attempt: top-level skills and those inside sections, each with its section. */
export function skillCells(row: Row): unknown[][] {
  return skillRows(row).map((k) =>
    SKILL_COLUMNS.map((c) => ((WHO as readonly string[]).includes(c) ? row[c] : k[c]) ?? null),
  );
}
