// `report <id>` on a terminal: one screen a recruiter reads at a glance — who, which test, the
// status, the total as `91 / 130 (70 %)` with a bar, a bar per section and per skill, minutes
// used against minutes allocated, the performance category. Service text is escaped first, then
// shortened to the terminal's width; colour is added last (none with NO_COLOR / --no-color).
import type { Style } from '../../../output/style.js';
import { bar } from '../../../output/bars.js';
import { escapeCell } from '../../../output/escape.js';
import { plain, statusColour } from '../../../output/values.js';
import { timeText } from '../../../output/local-time.js';
import { displayWidth, truncate } from '../../../output/width.js';
import { skillRows } from './skills.js';

type Row = Record<string, unknown>;

export interface PictureStyle {
  width: number;
  ascii: boolean;
  /** The zone times are shown in (undefined: the system's). */
  zone?: string;
  c: Style;
}

const LABEL = 10; // "Attempted " and friends
const MAX_BAR = 40;
/** A number, also as a numeric string (an answer the reader passed through as received). */
const num = (v: unknown): number | undefined => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : undefined;
};
const text = (v: unknown) => escapeCell(plain(v));
const pctOf = (got: number, of: number) => (of > 0 ? Math.round((got / of) * 100) : undefined);
/** 12.5 → "12.5", 12 → "12": points are floats in the spec but usually whole. */
const points = (n: number) => String(Math.round(n * 100) / 100);

/** Good results green, middling yellow, weak red: the same thresholds for every bar. */
function tone(pct: number | undefined, s: string, c: Style): string {
  if (pct === undefined) return s;
  return pct >= 70 ? c.green(s) : pct >= 50 ? c.yellow(s) : c.red(s);
}

function categoryColour(category: string, c: Style): string {
  const k = category.toLowerCase();
  if (k.includes('excellent') || k === 'good') return c.green(category);
  if (k.includes('average')) return c.yellow(category);
  if (k.includes('improvement') || k.includes('poor') || k.includes('fail')) return c.red(category);
  return category;
}

interface BarRow {
  label: string;
  got: number;
  of: number;
  /** e.g. "15 of 30 min" (sections only). */
  note?: string;
}

/**
 * Rows of `label  ████░░  58 / 70   83 %  note`, the bars as wide as the terminal allows; every
 * group (sections, skills) is laid out alike so their bars line up.
 */
function barRows(groups: BarRow[][], s: PictureStyle): string[][] {
  const rows = groups.flat();
  if (!rows.length) return groups.map(() => []);
  const labelW = Math.min(Math.max(...rows.map((r) => displayWidth(r.label))), Math.max(12, Math.floor(s.width * 0.3)));
  const scores = rows.map((r) => `${points(r.got)} / ${points(r.of)}`);
  const scoreW = Math.max(...scores.map((x) => x.length));
  // indent 2 + label + 2 + bar + 2 + score + 2 + "100 %" (5) + 2 + note; on a narrow terminal
  // the notes go first, then the bars.
  const fixed = 2 + labelW + 2 + 2 + scoreW + 2 + 5;
  let noteW = Math.max(0, ...rows.map((r) => (r.note ? r.note.length + 2 : 0)));
  if (s.width - fixed - noteW < 5) noteW = 0;
  const barW = Math.min(MAX_BAR, s.width - fixed - noteW);
  const lines = rows.map((r, i) => {
    const pct = pctOf(r.got, r.of);
    const label = truncate(r.label, labelW);
    const parts = [`  ${label}${' '.repeat(labelW - displayWidth(label))}`];
    if (barW >= 5) parts.push(tone(pct, bar(r.of > 0 ? r.got / r.of : 0, barW, s), s.c));
    parts.push(scores[i].padStart(scoreW), `${pct === undefined ? '–' : pct} %`.padStart(5));
    if (r.note && noteW) parts.push(s.c.dim(r.note));
    return truncateLine(parts.join('  '), s.width, s);
  });
  let at = 0;
  return groups.map((g) => lines.slice(at, (at += g.length)));
}

/** Lines without colour are cut to the width; a coloured line was built to fit already. */
function truncateLine(line: string, width: number, s: PictureStyle): string {
  return s.c.level === 0 ? truncate(line, width) : line;
}

function minutes(sections: Row[]): string | undefined {
  const used = sections.map((x) => num(x.sectionTimeTaken)).filter((x) => x !== undefined);
  const allowed = sections.map((x) => num(x.sectionTime)).filter((x) => x !== undefined);
  if (!used.length && !allowed.length) return undefined;
  const u = used.length ? `${Math.round(used.reduce((a, b) => a + b, 0) / 60)} min used` : 'time used unknown';
  return allowed.length ? `${u} of ${allowed.reduce((a, b) => a + b, 0)} min allowed` : u;
}

export function renderPicture(report: Row, s: PictureStyle): string {
  const { c, width } = s;
  const dot = s.ascii ? '-' : '·';
  const line = (label: string, value: string) => `${c.bold(label.padEnd(LABEL))}${value}`;
  const out: string[] = [];
  const who = text(report.candidateName ?? '') || text(report.candidateEmail);
  const email = report.candidateName ? text(report.candidateEmail) : '';
  const head = truncate(who, width);
  const rest = width - displayWidth(head) - 3;
  out.push(`${c.bold(head)}${email && rest > 5 ? c.dim(`  ${truncate(`<${email}>`, rest)}`) : ''}`);
  out.push(truncate(`${text(report.testName)} ${dot} invitation ${text(report.testInvitationId)}`, width));
  out.push('');
  const status = text(report.status);
  out.push(line('Status', statusColour(truncate(status, width - LABEL), c)));
  if (report.attemptedOn) out.push(line('Attempted', escapeCell(timeText(report.attemptedOn, s.zone))));

  const got = num(report.candidatePoints);
  const of = num(report.totalTestPoints);
  const sections = Array.isArray(report.sections) ? (report.sections as Row[]) : [];
  const skills = skillRows(report);
  if (got === undefined || of === undefined) {
    out.push(line('Score', c.yellow(`No result yet (${status || 'no status'})`)));
    return `${out.join('\n')}\n`;
  }
  const pct = num(report.scorePercentage) ?? pctOf(got, of);
  const total = `${points(got)} / ${points(of)} (${pct ?? '–'} %)`;
  const totalBar = Math.min(MAX_BAR, width - LABEL - total.length - 2);
  out.push(
    line('Score', `${total}${totalBar >= 5 ? `  ${tone(pct, bar(of > 0 ? got / of : 0, totalBar, s), c)}` : ''}`),
  );
  if (report.PerformanceCategory)
    out.push(line('Category', categoryColour(truncate(text(report.PerformanceCategory), width - LABEL), c)));
  const time = minutes(sections);
  if (time) out.push(line('Time', time));

  const sectionBars: BarRow[] = sections.flatMap((x) => {
    const g = num(x.candidateScore);
    const o = num(x.sectionScore);
    if (g === undefined || o === undefined) return [];
    const used = num(x.sectionTimeTaken);
    const allowed = num(x.sectionTime);
    const note = used !== undefined && allowed !== undefined ? `${Math.round(used / 60)} of ${allowed} min` : undefined;
    return [{ label: text(x.sectionName), got: g, of: o, note }];
  });
  const arrow = s.ascii ? '>' : '›';
  const skillBars: BarRow[] = skills.flatMap((k) => {
    const g = num(k.candidateQbScore);
    const o = num(k.qbScore);
    if (g === undefined || o === undefined) return [];
    return [
      { label: k.sectionName ? `${text(k.sectionName)} ${arrow} ${text(k.qbName)}` : text(k.qbName), got: g, of: o },
    ];
  });
  const [sectionLines, skillLines] = barRows([sectionBars, skillBars], s);
  if (sectionLines.length) out.push('', c.bold('Sections'), ...sectionLines);
  if (skillLines.length) out.push('', c.bold('Skills'), ...skillLines);
  return `${out.join('\n')}\n`;
}
