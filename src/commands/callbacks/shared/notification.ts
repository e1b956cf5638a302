// Pure helpers of `assess callbacks listen`: the environment an --exec command gets, and how one
// notification is printed (a table row on a TTY, a CSV line, or the body as one JSON line).
import type { Style } from '../../../output/style.js';
import { CALLBACK_V3_FIELDS } from '../../../api/wire-constants.js';
import { toCsvLine } from '../../../output/csv.js';
import { plain, statusColour } from '../../../output/values.js';
import { escapeCell } from '../../../output/escape.js';
import { localText } from '../../../output/local-time.js';

/** Body field → environment variable for --exec (null or missing → empty string). */
export const EVENT_ENV: Record<(typeof CALLBACK_V3_FIELDS)[number], string> = {
  CandidateEmailId: 'ASSESS_EVENT_EMAIL',
  AttemptedOn: 'ASSESS_EVENT_ATTEMPTED_ON',
  AttemptedOnUtc: 'ASSESS_EVENT_ATTEMPTED_ON_UTC',
  TotalScore: 'ASSESS_EVENT_TOTAL_SCORE',
  CandidateScore: 'ASSESS_EVENT_CANDIDATE_SCORE',
  ReportPDFUrl: 'ASSESS_EVENT_REPORT_URL',
  TestInvitationId: 'ASSESS_EVENT_INVITATION_ID',
  Status: 'ASSESS_EVENT_STATUS',
  PerformanceCategory: 'ASSESS_EVENT_PERFORMANCE_CATEGORY',
};

export function eventEnv(body: Record<string, unknown>, version: 'v3' | 'v2'): Record<string, string> {
  const env: Record<string, string> = { ASSESS_EVENT_VERSION: version };
  for (const field of CALLBACK_V3_FIELDS) env[EVENT_ENV[field]] = plain(body[field]);
  return env;
}

const COLUMNS = [
  // HH:MM:SS and the zone (local-time.ts): as wide as `21:30:05 UTC+10:30`
  { header: 'Received', width: 18 },
  { header: 'Status', width: 11 },
  { header: 'Invitation', width: 12 },
  { header: 'Candidate', width: 30 },
  { header: 'Score', width: 9 },
  { header: 'Category', width: 12 },
  { header: 'Report', width: 0 },
] as const;

const fit = (s: string, width: number) =>
  width === 0 ? s : s.length > width ? `${s.slice(0, width - 1)}…` : s.padEnd(width);

/** The header of the TTY table (printed once, before the first row). */
export function tableHeader(c: Style): string {
  return c.bold(
    COLUMNS.map((col) => fit(col.header, col.width))
      .join('  ')
      .trimEnd(),
  );
}

/**
 * One TTY row: the time received (this machine's zone, named), status, invitation, candidate,
 * score, category, report URL.
 */
export function tableRow(body: Record<string, unknown>, at: Date, c: Style, zone?: string): string {
  const b = body;
  const shown = (v: unknown) => escapeCell(plain(v)); // the body is anyone's text: no raw ESC on the terminal
  const cells = [
    localText(at, zone, true).slice(11),
    shown(b.Status) || '(v2)',
    shown(b.TestInvitationId),
    shown(b.CandidateEmailId),
    `${shown(b.CandidateScore)}/${shown(b.TotalScore)}`,
    shown(b.PerformanceCategory),
    shown(b.ReportPDFUrl),
  ];
  return cells
    .map((cell, i) => {
      const text = fit(cell, COLUMNS[i].width);
      if (i !== 1) return text;
      const shown = text.trimEnd(); // colour the word, keep the padding plain
      return statusColour(shown, c) + text.slice(shown.length);
    })
    .join('  ')
    .trimEnd();
}

export const csvHeader = () => toCsvLine([...CALLBACK_V3_FIELDS]);
/** `escape`: stdout is a terminal, where cells are escaped as in a table. */
export const csvRow = (body: Record<string, unknown>, formulaSafe = false, escape = false) =>
  toCsvLine(
    CALLBACK_V3_FIELDS.map((f) => body[f]),
    { formulaSafe, escape },
  );
