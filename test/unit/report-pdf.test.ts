import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ResponseShapeError } from '../../src/api/errors.js';
import { reportPdfName, sanitizeFileName } from '../../src/commands/report/shared/filename.js';
import { pdfGuard } from '../../src/commands/report/shared/pdf.js';
import { skillRows } from '../../src/commands/report/shared/skills.js';

describe('report file names', () => {
  it('uses the candidate and the id', () => {
    expect(reportPdfName('Ann Lee', '5001')).toBe('report-ann-lee-5001.pdf');
    expect(reportPdfName('ann.lee@example.com', '5001')).toBe('report-ann.lee-5001.pdf');
    expect(reportPdfName('José Ñúñez', '7')).toBe('report-jose-nunez-7.pdf');
  });
  it('never yields path separators, control characters or ..', () => {
    for (const evil of [
      '../../etc/passwd',
      '..\\..\\boot.ini',
      'a/b\\c',
      'x\u0000y\u001b[31m',
      '....',
      '/abs',
      'con:stream',
    ]) {
      const name = reportPdfName(evil, '9');
      expect(name).not.toMatch(/[/\\\u0000-\u001f]|\.\./);
      expect(name.endsWith('-9.pdf') || name === 'report-9.pdf').toBe(true);
    }
    expect(sanitizeFileName('../../x')).toBe('x');
    expect(sanitizeFileName('.hidden')).toBe('hidden');
  });
  it('falls back to the id alone', () => {
    expect(reportPdfName(undefined, '5001')).toBe('report-5001.pdf');
    expect(reportPdfName('///', '5001')).toBe('report-5001.pdf');
  });
  it('bounds the length', () => {
    expect(reportPdfName('a'.repeat(500), '1').length).toBeLessThan(80);
  });
});

const request = { method: 'GET', url: 'http://x/v3/reports/1/pdf', operation: 'v3.getReportPdf' };
async function through(chunks: string[]): Promise<string> {
  let out = '';
  await pipeline(
    Readable.from(chunks.map((c) => Buffer.from(c, 'latin1'))),
    pdfGuard(request),
    new Writable({ write: (c, _e, cb) => ((out += c.toString('latin1')), cb()) }),
  );
  return out;
}

describe('pdf guard', () => {
  it('passes a PDF through unchanged, even when the header arrives split', async () => {
    expect(await through(['%P', 'DF-1.', '7\nbody'])).toBe('%PDF-1.7\nbody');
  });
  it('refuses anything else', async () => {
    await expect(through(['{"errors":["nope"]}'])).rejects.toBeInstanceOf(ResponseShapeError);
    await expect(through(['%PD'])).rejects.toThrow(/did not send a PDF/);
    await expect(through([])).rejects.toThrow(/did not send a PDF/);
  });
});

describe('report skills', () => {
  it('takes top-level Skills (type 2) and Skills nested in sections (type 3), naming the section', () => {
    expect(skillRows({ Skills: [{ qbId: 1 }] })).toEqual([{ qbId: 1 }]);
    expect(
      skillRows({ sections: [{ sectionId: 3, sectionName: 'SQL', Skills: [{ qbId: 2 }] }, { sectionId: 4 }] }),
    ).toEqual([{ sectionName: 'SQL', sectionId: 3, qbId: 2 }]);
  });
});
