// The sandbox's report PDF as a person sees it: fetched over HTTP from a sandbox on port 0,
// rasterised with poppler's pdftoppm (exactly one page, not blank, the dark header band on top)
// and read back with pdftotext -layout. Skips, saying why, only when poppler-utils is missing
// (CI installs it in .ci/run).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/api/schemas/v3.js';
import { renderReportPdf } from '../../src/sandbox/pdf.js';
import { harness, type Harness } from './helpers.js';

const missing = ['pdftoppm', 'pdftotext'].filter((tool) => spawnSync(tool, ['-v']).error);
if (missing.length)
  console.warn(`pdf-render.test.ts skipped: ${missing.join(' and ')} not installed (apt-get install poppler-utils)`);

interface Page {
  width: number;
  height: number;
  /** Grey levels 0 (black) … 255 (white), row by row. */
  pixels: Uint8Array;
}

/** A binary PGM (P5, maxval 255) as pdftoppm -gray writes it. */
function parsePgm(buf: Buffer): Page {
  const header = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(buf.toString('latin1', 0, 64));
  if (!header || header[3] !== '255')
    throw new Error(`not an 8-bit binary PGM: ${JSON.stringify(buf.toString('latin1', 0, 20))}`);
  const width = Number(header[1]);
  const height = Number(header[2]);
  const pixels = new Uint8Array(buf.subarray(header[0].length, header[0].length + width * height));
  if (pixels.length !== width * height) throw new Error('PGM shorter than its header says');
  return { width, height, pixels };
}

const darkShare = (p: Page, fromRow: number, toRow: number) => {
  let dark = 0;
  for (let i = fromRow * p.width; i < toRow * p.width; i++) if (p.pixels[i]! < 128) dark++;
  return dark / ((toRow - fromRow) * p.width);
};
const inkShare = (p: Page) => p.pixels.filter((v) => v < 250).length / p.pixels.length;

let dir: string;
/** The pages of a PDF, rasterised in greyscale at 40 dpi. */
function pages(pdf: Buffer, name: string): Page[] {
  const file = join(dir, `${name}.pdf`);
  writeFileSync(file, pdf);
  execFileSync('pdftoppm', ['-r', '40', '-gray', file, join(dir, name)]);
  return readdirSync(dir)
    .filter((f) => f.startsWith(`${name}-`) && f.endsWith('.pgm'))
    .sort()
    .map((f) => parsePgm(readFileSync(join(dir, f))));
}
const text = (pdf: Buffer, name: string) => {
  const file = join(dir, `${name}.pdf`);
  writeFileSync(file, pdf);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
};

describe.skipIf(missing.length > 0)('the report PDF, rendered', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness();
    dir = mkdtempSync(join(tmpdir(), 'assess-pdf-render-'));
  });
  afterAll(async () => {
    await h.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const getPdf = async (id: number) => {
    const res = await fetch(`${h.sb.baseUrl}/v3/reports/${id}/pdf`, { headers: { 'X-API-KEY': h.keyA } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/pdf');
    return Buffer.from(await res.arrayBuffer());
  };

  it('a completed attempt is one A4 page with the header, total, sections, skills and minutes', async () => {
    const id = await h.inviteA(1001, 'rita.render@example.com', { name: 'Rita Render' });
    await h.move(id, 'complete', { score: 70 });
    const pdf = await getPdf(id);

    const [page, ...more] = pages(pdf, 'complete');
    expect(more).toHaveLength(0);
    expect(page!.height / page!.width).toBeCloseTo(841.89 / 595.28, 2); // A4 portrait
    expect(darkShare(page!, 0, Math.floor(page!.height * 0.06))).toBeGreaterThan(0.9); // the header band
    expect(inkShare(page!)).toBeGreaterThan(0.08);

    const t = text(pdf, 'complete');
    expect(t).toContain('Candidate report');
    expect(t).toContain('Rita Render');
    expect(t).toContain('rita.render@example.com');
    expect(t).toContain('Java Backend Developer (id 1001)');
    expect(t).toMatch(/Complete/);
    expect(t).toMatch(/91 \/ 130\s+70 %/);
    expect(t).toMatch(/PERFORMANCE\s*\n[\s\S]*Good/);
    expect(t).toMatch(/\d+ sections · 17 questions · \d+ minutes used of 75 minutes/);
    expect(t).toMatch(/Core Java\s+14 questions\s+\d+ \/ 70\s+\d+ %\s+\d+ of 30 min/);
    expect(t).toMatch(/Coding\s+3 questions\s+\d+ \/ 60\s+\d+ %\s+\d+ of 45 min/);
    expect(t).toMatch(/Debugging\s+1 question\s+\d+ \/ 20\s+\d+ %/); // singular
    expect(t).not.toMatch(/\b1 questions\b/);
    expect(t).toMatch(/Attempted on[\s\S]*\d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d UTC/i);
    expect(t).not.toMatch(/\d{4}-\d\d-\d\dT/); // no raw ISO times
    expect(t).toContain('Page 1 of 1');
  });

  it('the seeded Test Left attempt shows its status and no "?" note', async () => {
    const t = text(await getPdf(900002), 'left');
    expect(t).toContain('Test Left');
    expect(t).not.toContain("this PDF's fonts cannot show");
  });

  it('the same attempt gives the same bytes on every fetch', async () => {
    const a = await getPdf(900001);
    const b = await getPdf(900001);
    expect(b.equals(a)).toBe(true);
    expect(text(a, 'seeded')).toContain('Alice Archer');
  });

  it('a pending or in-progress attempt has no PDF yet (400 with the reason, as the spec says)', async () => {
    for (const [id, status] of [
      [900004, 'Pending'],
      [900005, 'In Progress'],
    ] as const) {
      const res = await h.api('GET', `/v3/reports/${id}/pdf`);
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body.errors)).toContain(
        `No report yet for test invitation id ${id}: the attempt is ${status}`,
      );
    }
  });

  it('hostile names and many sections stay on one page, cut with … and ? for what WinAnsi lacks', async () => {
    const report = (await h.api('GET', '/v3/reports/900001?reportType=3')).body as Report;
    const base = report.sections![0]!;
    const hostile: Report = {
      ...report,
      candidateName:
        `张伟 \u202eevil\u202c\n\u001b[31mZoë Łukasiewicz ` + `${'Wolfeschlegelsteinhausenbergerdorff '.repeat(6)}`,
      candidateEmail: `${'a'.repeat(200)}@example.com`,
      testName: 'T'.repeat(300),
      sections: Array.from({ length: 40 }, (_, i) => ({ ...base, sectionName: `Section ${i} ${'x'.repeat(80)}` })),
    };
    const pdf = await renderReportPdf(hostile, '2030-01-01T00:00:00Z');
    const [page, ...more] = pages(pdf, 'hostile');
    expect(more).toHaveLength(0);
    expect(inkShare(page!)).toBeGreaterThan(0.08);
    const t = text(pdf, 'hostile');
    expect(t).toMatch(/\?\? evil \[31mZoë Lukasiewicz\s*\n\s*Wolfeschlegel\S*\s\S*…\n/); // two lines, cut at a space
    expect(t).not.toContain('\u001b');
    expect(t).toContain('…');
    expect(t).toMatch(/\d+ more sections not shown for lack of room/);
    expect(t).toContain("? marks characters this PDF's fonts cannot show");
    expect(t).toContain('Page 1 of 1');
    // nothing runs off the right edge: every line of the layout text stays within the page
    for (const line of t.split('\n')) expect(line.length).toBeLessThan(160);
  });
});
