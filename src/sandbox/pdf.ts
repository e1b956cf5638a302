// A real PDF of a report, one A4 page: a header block (candidate, e-mail, test, status, attempted
// on), the total with a bar and the performance category, and a table of sections — each with
// its skills beneath — with bars, percentages, question counts and minutes. pdfkit is imported
// only when a PDF is first rendered, so starting the sandbox and serving JSON never load it.
//
// Deterministic: the same report and `generatedAt` give the same bytes (the PDF's CreationDate —
// and the file ID pdfkit derives from the info dictionary — come from `generatedAt`, not the
// wall clock; times are shown in UTC, never the host's zone), so a cached PDF is
// indistinguishable from a fresh render (see report-pdfs.ts).
//
// Every text is placed at a computed position with `lineBreak: false` and cut to its box first
// (pdf-text.ts), so hostile names cannot wrap into other blocks or push content onto a second
// page; sections that do not fit are counted in a note instead.
import type { Report, ReportSection } from '../api/schemas/v3.js';
import { fitText, minutesText, pdfText, percentOf, plural, utcText, wrapText } from './pdf-text.js';
import { performanceCategory } from './scoring.js';

type Doc = PDFKit.PDFDocument;
type Font = 'Helvetica' | 'Helvetica-Bold';

const PAGE_W = 595.28; // A4 in points
const PAGE_H = 841.89;
const M = 48; // side margin
const W = PAGE_W - 2 * M;
const TABLE_END = PAGE_H - 74; // rows stop here; the footer sits below
const INK = '#0f172a';
const MUTED = '#64748b';
const TRACK = '#e2e8f0';
const CATEGORY_COLOUR: Record<string, string> = { Excellent: '#15803d', Good: '#1d4ed8', Average: '#b45309', 'Needs Improvement': '#b91c1c' };
const colourOfPercent = (pct: number | null) => (pct === null ? MUTED : CATEGORY_COLOUR[performanceCategory(pct)]!);

// Table columns: x offset from the margin and width.
const COL = { name: [0, 140], questions: [148, 62], score: [218, 50], bar: [278, 100], pct: [386, 34], time: [430, W - 430] } as const;

interface Put {
  font?: Font;
  size: number;
  colour?: string;
  /** Cut to this width (with `…`); with `right`, aligned to its right edge. */
  width?: number;
  right?: boolean;
}

export async function renderReportPdf(report: Report, generatedAt: string): Promise<Buffer> {
  const { default: PDFDocument } = await import('pdfkit');
  const created = new Date(generatedAt);
  let replaced = false;
  const safe = (s: string | null | undefined) => {
    const t = pdfText(s);
    replaced ||= t.replaced;
    return t.text;
  };
  const name = safe(report.candidateName) || safe(report.candidateEmail) || 'Unnamed candidate';
  const doc = new PDFDocument({
    size: 'A4',
    margin: M,
    info: {
      Title: `Candidate report: ${name} (invitation ${report.testInvitationId})`,
      Author: 'assess sandbox',
      CreationDate: Number.isNaN(created.getTime()) ? new Date(0) : created,
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const measure = (s: string) => doc.widthOfString(s);
  const put = (text: string, x: number, y: number, o: Put) => {
    doc
      .font(o.font ?? 'Helvetica')
      .fontSize(o.size)
      .fillColor(o.colour ?? INK);
    let t = text;
    let dx = 0;
    if (o.width !== undefined) {
      // measured once when it fits (the usual case): widths are most of a render's cost
      const w = measure(text);
      if (w > o.width) t = fitText(text, o.width, measure);
      if (o.right) dx = o.width - (t === text ? w : measure(t));
    }
    doc.text(t, x + dx, y, { lineBreak: false });
  };

  // Header band
  doc.rect(0, 0, PAGE_W, 70).fill('#1e293b');
  put('Candidate report', M, 24, { font: 'Helvetica-Bold', size: 20, colour: '#ffffff' });
  put('Online assessment · sandbox', M + W / 2, 24, { size: 9, colour: '#cbd5e1', width: W / 2, right: true });
  put(`Generated ${utcText(generatedAt)}`, M + W / 2, 38, { size: 9, colour: '#cbd5e1', width: W / 2, right: true });

  // Who and what
  let y = 90;
  doc.font('Helvetica-Bold').fontSize(18);
  for (const line of wrapText(name, W, 2, measure)) {
    put(line, M, y, { font: 'Helvetica-Bold', size: 18 });
    y += 22;
  }
  put(safe(report.candidateEmail), M, y + 2, { size: 10, colour: MUTED, width: W });
  y += 24;
  const cellW = W / 2 - 12;
  const cell = (label: string, value: string, x: number, top: number, colour = INK) => {
    put(label.toUpperCase(), x, top, { size: 8, colour: MUTED, width: cellW });
    put(value, x, top + 11, { size: 11, colour, width: cellW });
  };
  const status = safe(report.status) || '-';
  cell('Test', `${safe(report.testName)} (id ${safe(String(report.testId))})`, M, y);
  cell('Status', status, M + W / 2, y, status === 'Complete' ? CATEGORY_COLOUR.Excellent : CATEGORY_COLOUR.Average);
  cell('Invitation', String(report.testInvitationId), M, y + 32);
  cell('Attempted on', utcText(report.attemptedOn), M + W / 2, y + 32);
  y += 72;

  y = scoreBox(doc, report, safe, put, y) + 22;
  y = sectionsTable(doc, report.sections ?? [], safe, put, y);
  highlights(report.sections ?? [], safe, put, y + 18);

  // Footer
  doc
    .moveTo(M, PAGE_H - 52)
    .lineTo(PAGE_W - M, PAGE_H - 52)
    .lineWidth(0.5)
    .strokeColor(TRACK)
    .stroke();
  if (replaced) {
    put("? marks characters this PDF's fonts cannot show; the JSON report has the exact text.", M, PAGE_H - 64, { size: 8, colour: MUTED, width: W });
  }
  put(`Sandbox report · invitation ${report.testInvitationId} · times in UTC`, M, PAGE_H - 44, { size: 8, colour: MUTED, width: W - 80 });
  put('Page 1 of 1', PAGE_W - M - 80, PAGE_H - 44, { size: 8, colour: MUTED, width: 80, right: true });
  doc.end();
  return done;
}

type Safe = (s: string | null | undefined) => string;
type PutFn = (text: string, x: number, y: number, o: Put) => void;

/** A bar `w` wide filled to `pct` (null: empty track). */
function drawBar(doc: Doc, x: number, y: number, w: number, h: number, pct: number | null, colour: string): void {
  const r = h / 2;
  doc.roundedRect(x, y, w, h, r).fill(TRACK);
  const filled = pct === null ? 0 : (w * Math.min(100, Math.max(0, pct))) / 100;
  if (filled >= h) doc.roundedRect(x, y, filled, h, r).fill(colour);
  else if (filled > 0) doc.rect(x, y, filled, h).fill(colour);
}

/** The total: points, percent, bar, category, questions and minutes. Returns the y below it. */
function scoreBox(doc: Doc, report: Report, safe: Safe, put: PutFn, top: number): number {
  const h = 96;
  const pad = 16;
  doc.roundedRect(M, top, W, h, 6).fill('#f1f5f9');
  const pct = report.scorePercentage ?? percentOf(report.candidatePoints, report.totalTestPoints);
  const colour = colourOfPercent(pct);
  put('TOTAL SCORE', M + pad, top + 14, { size: 8, colour: MUTED });
  if (report.candidatePoints == null) {
    put(`No result yet (${safe(report.status) || 'unknown'})`, M + pad, top + 28, { font: 'Helvetica-Bold', size: 20, width: W - 2 * pad });
  } else {
    const points = `${report.candidatePoints} / ${report.totalTestPoints ?? '-'}`;
    put(points, M + pad, top + 26, { font: 'Helvetica-Bold', size: 26 });
    const x = M + pad + doc.widthOfString(points) + 18;
    if (pct !== null) put(`${pct} %`, x, top + 26, { font: 'Helvetica-Bold', size: 26, colour });
  }
  const category = safe(report.PerformanceCategory);
  if (category) {
    const right = M + W - pad;
    put('PERFORMANCE', right - 160, top + 14, { size: 8, colour: MUTED, width: 160, right: true });
    doc.font('Helvetica-Bold').fontSize(11);
    const label = fitText(category, 150, (s) => doc.widthOfString(s));
    const pillW = doc.widthOfString(label) + 20;
    doc.roundedRect(right - pillW, top + 28, pillW, 22, 11).fill(CATEGORY_COLOUR[category] ?? MUTED);
    put(label, right - pillW + 10, top + 34, { font: 'Helvetica-Bold', size: 11, colour: '#ffffff' });
  }
  drawBar(doc, M + pad, top + 62, W - 2 * pad, 10, pct, colour);
  const sections = report.sections ?? [];
  const questions = sections.reduce((a, s) => a + s.noOfQue, 0);
  const used = sections.reduce((a, s) => a + (s.sectionTimeTaken ?? 0), 0);
  const allowed = sections.reduce((a, s) => a + (s.sectionTime ?? 0), 0);
  const facts = [
    sections.length ? plural(sections.length, 'section') : '',
    sections.length ? plural(questions, 'question') : '',
    allowed ? `${minutesText(used)} used of ${plural(allowed, 'minute')}` : '',
  ].filter(Boolean);
  if (facts.length) put(facts.join(' · '), M + pad, top + 78, { size: 9, colour: MUTED, width: W - 2 * pad });
  return top + h;
}

/** One row per section, its skills beneath; what does not fit is counted in a note. Returns the y below. */
function sectionsTable(doc: Doc, sections: ReportSection[], safe: Safe, put: PutFn, top: number): number {
  if (!sections.length) return top;
  let y = top;
  put('Sections', M, y, { font: 'Helvetica-Bold', size: 13 });
  y += 22;
  const head = (label: string, [x, w]: readonly [number, number], right = false) => put(label, M + x, y, { size: 8, colour: MUTED, width: w, right });
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
  y += 6;

  const row = (o: { name: string; indent: number; questions: number; got: number; of: number; time: string; bold: boolean; h: number }) => {
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
    y += o.h;
  };

  let shown = 0;
  for (const s of sections) {
    const skills = s.Skills ?? [];
    if (y + 22 + 16 * Math.min(skills.length, 1) > TABLE_END - 16) break;
    const time =
      s.sectionTime != null
        ? `${Math.round((s.sectionTimeTaken ?? 0) / 60)} of ${s.sectionTime} min`
        : s.sectionTimeTaken != null
          ? minutesText(s.sectionTimeTaken)
          : '';
    row({
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
      row({
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
      put(`… ${plural(skills.length - skillsShown, 'more skill')} not shown`, M + 12, y + 2, { size: 8, colour: MUTED });
      y += 12;
    }
    y += 4;
    doc
      .moveTo(M, y)
      .lineTo(M + W, y)
      .lineWidth(0.5)
      .strokeColor(TRACK)
      .stroke();
    y += 4;
    shown++;
  }
  if (shown < sections.length) {
    put(`${plural(sections.length - shown, 'more section')} not shown for lack of room; the JSON report has them all.`, M, y + 4, {
      size: 8,
      colour: MUTED,
      width: W,
    });
    y += 16;
  }
  return y;
}

/** The strongest and weakest skill, when there is a difference to point out and room for it. */
function highlights(sections: ReportSection[], safe: Safe, put: PutFn, top: number): void {
  if (top + 44 > TABLE_END) return;
  const skills = sections.flatMap((s) =>
    (s.Skills ?? []).map((k) => ({ name: safe(k.qbName) || `Skill ${k.qbId}`, section: safe(s.sectionName), pct: percentOf(k.candidateQbScore, k.qbScore) })),
  );
  const scored = skills.filter((k): k is typeof k & { pct: number } => k.pct !== null);
  if (scored.length < 2) return;
  // first of the best and first of the worst, in report order: stable for equal scores
  const best = scored.reduce((a, k) => (k.pct > a.pct ? k : a));
  const worst = scored.reduce((a, k) => (k.pct < a.pct ? k : a));
  if (best.pct === worst.pct) return;
  put('Highlights', M, top, { font: 'Helvetica-Bold', size: 13 });
  const line = (label: string, k: (typeof scored)[number], y: number) => {
    put(label, M, y, { size: 10, colour: MUTED });
    put(`${k.name}${k.section ? ` (${k.section})` : ''}: ${k.pct} %`, M + 100, y, { size: 10, width: W - 100 });
  };
  line('Strongest skill', best, top + 22);
  line('Weakest skill', worst, top + 38);
}
