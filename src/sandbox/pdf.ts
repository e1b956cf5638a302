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
import type { Report } from '../api/schemas/v3.js';
import {
  CATEGORY_COLOUR,
  colourOfPercent,
  drawBar,
  INK,
  M,
  MUTED,
  PAGE_H,
  PAGE_W,
  TRACK,
  W,
  type Doc,
  type Put,
  type PutFn,
  type Safe,
} from './pdf-layout.js';
import { highlights, sectionsTable } from './pdf-sections.js';
import { fitText, minutesText, pdfText, percentOf, utcText, wrapText } from './pdf-text.js';
import { plural } from '../util/plural.js';

export async function renderReportPdf(report: Report, generatedAt: string): Promise<Buffer> {
  let replaced = false;
  const safe = (s: string | null | undefined) => {
    const t = pdfText(s);
    replaced ||= t.replaced;
    return t.text;
  };
  const name = safe(report.candidateName) || safe(report.candidateEmail) || 'Unnamed candidate';
  const { doc, done } = await openDoc(`Candidate report: ${name} (invitation ${report.testInvitationId})`, generatedAt);
  const put = putter(doc);

  let y = header(doc, report, name, generatedAt, safe, put);
  y = scoreBox(doc, report, safe, put, y) + 22;
  y = sectionsTable(doc, report.sections ?? [], safe, put, y);
  highlights(report.sections ?? [], safe, put, y + 18);
  footer(doc, report, replaced, put);
  doc.end();
  return done;
}

/** A new A4 document (pdfkit loaded now) and the bytes it will have written once ended. */
async function openDoc(title: string, generatedAt: string): Promise<{ doc: Doc; done: Promise<Buffer> }> {
  const { default: PDFDocument } = await import('pdfkit');
  const created = new Date(generatedAt);
  const doc = new PDFDocument({
    size: 'A4',
    margin: M,
    info: {
      Title: title,
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
  return { doc, done };
}

/** Places one line of text, cut to its box (and right-aligned in it) when a width is given. */
function putter(doc: Doc): PutFn {
  const measure = (s: string) => doc.widthOfString(s);
  return (text: string, x: number, y: number, o: Put) => {
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
}

/** The header band, then who and what: name, e-mail, test, status, invitation, date. Returns the y below. */
function header(doc: Doc, report: Report, name: string, generatedAt: string, safe: Safe, put: PutFn): number {
  doc.rect(0, 0, PAGE_W, 70).fill('#1e293b');
  put('Candidate report', M, 24, { font: 'Helvetica-Bold', size: 20, colour: '#ffffff' });
  put('Online assessment · sandbox', M + W / 2, 24, { size: 9, colour: '#cbd5e1', width: W / 2, right: true });
  put(`Generated ${utcText(generatedAt)}`, M + W / 2, 38, { size: 9, colour: '#cbd5e1', width: W / 2, right: true });

  let y = 90;
  doc.font('Helvetica-Bold').fontSize(18);
  for (const line of wrapText(name, W, 2, (s) => doc.widthOfString(s))) {
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
  return y + 72;
}

/** The rule, the note on replaced characters (when any were), the invitation and the page number. */
function footer(doc: Doc, report: Report, replaced: boolean, put: PutFn): void {
  doc
    .moveTo(M, PAGE_H - 52)
    .lineTo(PAGE_W - M, PAGE_H - 52)
    .lineWidth(0.5)
    .strokeColor(TRACK)
    .stroke();
  if (replaced) {
    put("? marks characters this PDF's fonts cannot show; the JSON report has the exact text.", M, PAGE_H - 64, {
      size: 8,
      colour: MUTED,
      width: W,
    });
  }
  put(`Sandbox report · invitation ${report.testInvitationId} · times in UTC`, M, PAGE_H - 44, {
    size: 8,
    colour: MUTED,
    width: W - 80,
  });
  put('Page 1 of 1', PAGE_W - M - 80, PAGE_H - 44, { size: 8, colour: MUTED, width: 80, right: true });
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
    put(`No result yet (${safe(report.status) || 'unknown'})`, M + pad, top + 28, {
      font: 'Helvetica-Bold',
      size: 20,
      width: W - 2 * pad,
    });
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
