// A real PDF of a report (candidate, test, score, sections, skills). pdfkit is imported only
// when a PDF is first rendered, so starting the sandbox and serving JSON never load it.
// Deterministic: the same report and `generatedAt` give the same bytes (the PDF's CreationDate —
// and the file ID pdfkit derives from the info dictionary — come from `generatedAt`, not the
// wall clock), so a cached PDF is indistinguishable from a fresh render (see report-pdfs.ts).
import type { Report } from '../api/schemas/v3.js';

type Row = [string, string];

export async function renderReportPdf(report: Report, generatedAt: string): Promise<Buffer> {
  const { default: PDFDocument } = await import('pdfkit');
  const created = new Date(generatedAt);
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    info: {
      Title: `Report ${report.testInvitationId}`,
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

  doc.fontSize(20).text('Candidate report', { underline: false });
  doc.fontSize(9).fillColor('#666').text(`Sandbox — generated ${generatedAt}`).fillColor('#000').moveDown();

  const rows: Row[] = [
    ['Candidate', `${report.candidateName ?? ''} <${report.candidateEmail}>`],
    ['Test', `${report.testName} (id ${report.testId})`],
    ['Invitation', String(report.testInvitationId)],
    ['Status', report.status],
    ['Attempted on', report.attemptedOn ?? '-'],
    ['Score', `${report.candidatePoints ?? '-'} / ${report.totalTestPoints ?? '-'} points (${report.scorePercentage ?? '-'} %)`],
    ['Performance', report.PerformanceCategory ?? '-'],
  ];
  doc.fontSize(11);
  for (const [k, v] of rows) doc.font('Helvetica-Bold').text(`${k}: `, { continued: true }).font('Helvetica').text(v);
  doc.moveDown();

  for (const s of report.sections ?? []) {
    doc.font('Helvetica-Bold').fontSize(13).text(`${s.sectionName}: ${s.candidateScore} / ${s.sectionScore}`);
    doc
      .font('Helvetica')
      .fontSize(10)
      .text(`${s.noOfQue} questions · ${s.sectionTime ?? '-'} min allocated · ${Math.round((s.sectionTimeTaken ?? 0) / 60)} min used`);
    for (const k of s.Skills ?? []) doc.text(`   • ${k.qbName}: ${k.candidateQbScore} / ${k.qbScore} (${k.noOfQue} questions)`);
    doc.moveDown(0.5);
  }
  doc.end();
  return done;
}
