// The report PDF's sections table (each section with its skills beneath: questions, points, bar,
// percentage, minutes) and the strongest/weakest skill below it.
import type { ReportSection } from '../api/schemas/v3.js';
import {
  colourOfPercent,
  drawBar,
  INK,
  M,
  MUTED,
  TABLE_END,
  TRACK,
  W,
  type Doc,
  type Font,
  type PutFn,
  type Safe,
} from './pdf-layout.js';
import { minutesText, percentOf } from './pdf-text.js';
import { plural } from '../util/plural.js';

// Table columns: x offset from the margin and width.
const COL = {
  name: [0, 140],
  questions: [148, 62],
  score: [218, 50],
  bar: [278, 100],
  pct: [386, 34],
  time: [430, W - 430],
} as const;

/** One row per section, its skills beneath; what does not fit is counted in a note. Returns the y below. */
export function sectionsTable(doc: Doc, sections: ReportSection[], safe: Safe, put: PutFn, top: number): number {
  if (!sections.length) return top;
  let y = tableHead(doc, put, top);
  let shown = 0;
  for (const s of sections) {
    const below = sectionRows(doc, s, safe, put, y);
    if (below === null) break;
    y = below;
    shown++;
  }
  if (shown < sections.length) {
    put(
      `${plural(sections.length - shown, 'more section')} not shown for lack of room; the JSON report has them all.`,
      M,
      y + 4,
      {
        size: 8,
        colour: MUTED,
        width: W,
      },
    );
    y += 16;
  }
  return y;
}

/** The table's title and column heads with a rule beneath. Returns the y below. */
function tableHead(doc: Doc, put: PutFn, top: number): number {
  let y = top;
  put('Sections', M, y, { font: 'Helvetica-Bold', size: 13 });
  y += 22;
  const head = (label: string, [x, w]: readonly [number, number], right = false) =>
    put(label, M + x, y, { size: 8, colour: MUTED, width: w, right });
  head('SECTION / SKILL', COL.name);
  head('QUESTIONS', COL.questions);
  head('SCORE', COL.score, true);
  head('%', COL.pct, true);
  head('TIME', COL.time, true);
  y += 12;
  doc
    .moveTo(M, y)
    .lineTo(M + W, y)
    .lineWidth(0.75)
    .strokeColor('#cbd5e1')
    .stroke();
  return y + 6;
}

/** A section's row, its skills' rows and a rule; null when not even the section row fits at `top`. */
function sectionRows(doc: Doc, s: ReportSection, safe: Safe, put: PutFn, top: number): number | null {
  const skills = s.Skills ?? [];
  if (top + 22 + 16 * Math.min(skills.length, 1) > TABLE_END - 16) return null;
  const time =
    s.sectionTime != null
      ? `${Math.round((s.sectionTimeTaken ?? 0) / 60)} of ${s.sectionTime} min`
      : s.sectionTimeTaken != null
        ? minutesText(s.sectionTimeTaken)
        : '';
  let y = tableRow(doc, put, top, {
    name: safe(s.sectionName) || `Section ${s.sectionId}`,
    indent: 0,
    questions: s.noOfQue,
    got: s.candidateScore,
    of: s.sectionScore,
    time,
    bold: true,
    h: 22,
  });
  let skillsShown = 0;
  for (const k of skills) {
    if (y + 16 > TABLE_END - 16) break;
    y = tableRow(doc, put, y, {
      name: safe(k.qbName) || `Skill ${k.qbId}`,
      indent: 12,
      questions: k.noOfQue,
      got: k.candidateQbScore,
      of: k.qbScore,
      time: '',
      bold: false,
      h: 16,
    });
    skillsShown++;
  }
  if (skillsShown < skills.length) {
    put(`… ${plural(skills.length - skillsShown, 'more skill')} not shown`, M + 12, y + 2, {
      size: 8,
      colour: MUTED,
    });
    y += 12;
  }
  y += 4;
  doc
    .moveTo(M, y)
    .lineTo(M + W, y)
    .lineWidth(0.5)
    .strokeColor(TRACK)
    .stroke();
  return y + 4;
}

interface Row {
  name: string;
  indent: number;
  questions: number;
  got: number;
  of: number;
  time: string;
  bold: boolean;
  h: number;
}

/** One table row (a section in bold, a skill indented) at `y`. Returns the y below. */
function tableRow(doc: Doc, put: PutFn, y: number, o: Row): number {
  const size = o.bold ? 10 : 9;
  const font: Font = o.bold ? 'Helvetica-Bold' : 'Helvetica';
  const colour = o.bold ? INK : '#334155';
  const pct = percentOf(o.got, o.of);
  const ty = y + (o.h - size) / 2 - 1;
  put(o.name, M + COL.name[0] + o.indent, ty, { font, size, colour, width: COL.name[1] - o.indent });
  put(plural(o.questions, 'question'), M + COL.questions[0], ty, { size, colour, width: COL.questions[1] });
  put(`${o.got} / ${o.of}`, M + COL.score[0], ty, { size, colour, width: COL.score[1], right: true });
  const barH = o.bold ? 8 : 5;
  drawBar(doc, M + COL.bar[0], y + (o.h - barH) / 2, COL.bar[1], barH, pct, colourOfPercent(pct));
  put(pct === null ? '-' : `${pct} %`, M + COL.pct[0], ty, { font, size, colour, width: COL.pct[1], right: true });
  if (o.time) put(o.time, M + COL.time[0], ty, { size, colour: MUTED, width: COL.time[1], right: true });
  return y + o.h;
}

/**
 * The strongest and weakest skill, when there is a difference to point out and room for it.
 * Chosen by the exact share of points (33/40 = 82.5 % is below 25/30 = 83.3 %, though both print
 * as 83 %), and shown with a decimal when the whole numbers would read alike.
 */
export function highlights(sections: ReportSection[], safe: Safe, put: PutFn, top: number): void {
  if (top + 44 > TABLE_END) return;
  const skills = sections.flatMap((s) =>
    (s.Skills ?? []).map((k) => ({
      name: safe(k.qbName) || `Skill ${k.qbId}`,
      section: safe(s.sectionName),
      share: shareOf(k.candidateQbScore, k.qbScore),
    })),
  );
  const scored = skills.filter((k): k is typeof k & { share: number } => k.share !== null);
  if (scored.length < 2) return;
  // first of the best and first of the worst, in report order: stable for equal scores
  const best = scored.reduce((a, k) => (k.share > a.share ? k : a));
  const worst = scored.reduce((a, k) => (k.share < a.share ? k : a));
  if (best.share === worst.share) return;
  const digits = Math.round(best.share * 100) === Math.round(worst.share * 100) ? 1 : 0;
  const pct = (share: number) => (share * 100).toFixed(digits);
  put('Highlights', M, top, { font: 'Helvetica-Bold', size: 13 });
  const line = (label: string, k: (typeof scored)[number], y: number) => {
    put(label, M, y, { size: 10, colour: MUTED });
    put(`${k.name}${k.section ? ` (${k.section})` : ''}: ${pct(k.share)} %`, M + 100, y, { size: 10, width: W - 100 });
  };
  line('Strongest skill', best, top + 22);
  line('Weakest skill', worst, top + 38);
}

/** Points over the total, exactly (null without a usable total). */
function shareOf(part: number | null | undefined, whole: number | null | undefined): number | null {
  if (part == null || whole == null || !Number.isFinite(part) || !Number.isFinite(whole) || whole <= 0) return null;
  return part / whole;
}
