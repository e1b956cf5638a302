// `assess report` against the sandbox: JSON report in every format and type, and the PDF
// download (real PDF, -o -, no overwrite without --force, atomic: no temp file left).
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { runInProcess as runAssess } from '../helpers/in-process.js';
import { startServer } from '../helpers/http-server.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let s: TestSandbox;
const work = tempDir('assess-report-');
beforeAll(async () => {
  s = await startTestSandbox();
});
afterAll(async () => {
  await s?.close();
  work.cleanup();
});

const run = (args: string[], cwd?: string) => runAssess(args, { env: s.env, cwd });
const pdfRequests = async () => (await s.requests()).filter((r) => r.path.endsWith('/pdf')).length;
const freshDir = (name: string) => {
  const d = join(work.dir, name);
  mkdirSync(d);
  return d;
};

describe('assess report', () => {
  it('TSV: header fields, then section rows (summary is the default type)', async () => {
    const r = await run(['report', '900001']);
    expect(r.code).toBe(0);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => l.split('\t'));
    const head = Object.fromEntries(lines.slice(0, 10));
    expect(head).toMatchObject({
      testInvitationId: '900001',
      candidateEmail: 'alice@example.com',
      testName: 'Java Backend Developer',
      status: 'Complete',
      scorePercentage: '82',
    });
    expect(Number(head.candidatePoints)).toBeGreaterThan(0);
    expect(head.attemptedOn).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/); // ISO UTC when not a TTY
    expect(lines.slice(10).map((l) => l[1])).toEqual(['Core Java', 'Coding']);
    expect((await s.requests()).at(-1)!.path).toBe('/v3/reports/900001?reportType=1');
  });

  it('--type skills and --type both send reportType 2 and 3 and list skills', async () => {
    const skills = await run(['report', '900001', '--type', 'skills']);
    expect(skills.code).toBe(0);
    expect((await s.requests()).at(-1)!.path).toBe('/v3/reports/900001?reportType=2');
    expect(skills.stdout).toMatch(/\tOOP\t/);
    const both = await run(['report', '900001', '--type', 'both']);
    expect((await s.requests()).at(-1)!.path).toBe('/v3/reports/900001?reportType=3');
    expect(both.stdout).toMatch(/\tCore Java\t/);
    expect(both.stdout).toMatch(/Core Java\t111\tOOP\t/);
  });

  it('--json gives the report object; --json fields; --ndjson; --csv', async () => {
    const json = JSON.parse((await run(['report', '900001', '--type', 'both', '--json'])).stdout);
    expect(json).toMatchObject({ testInvitationId: 900001, status: 'Complete', scorePercentage: 82 });
    expect(json.sections[0].Skills.length).toBeGreaterThan(0);
    expect(json.PerformanceCategory).toEqual(expect.any(String));
    const picked = JSON.parse(
      (await run(['report', '900001', '--json', 'status,candidatePoints,totalTestPoints'])).stdout,
    );
    expect(Object.keys(picked)).toEqual(['status', 'candidatePoints', 'totalTestPoints']);
    const nd = (await run(['report', '900001', '--ndjson'])).stdout;
    expect(nd.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(nd).testInvitationId).toBe(900001);
    expect(JSON.parse(nd).sections[0].Skills.length).toBeGreaterThan(0); // --ndjson asks for both types
    expect((await s.requests()).at(-1)!.path).toBe('/v3/reports/900001?reportType=3');
    // --csv is the summary row only: the summary report is enough
    const csv = (await run(['report', '900001', '--csv'])).stdout.split('\r\n');
    expect((await s.requests()).at(-1)!.path).toBe('/v3/reports/900001?reportType=1');
    // fixed columns: no column per section or skill (those are the export's sections.csv, skills.csv)
    expect(csv[0]).toBe(
      'testInvitationId,testId,candidateName,candidateEmail,testName,status,candidatePoints,totalTestPoints,scorePercentage,PerformanceCategory,attemptedOn,pdf',
    );
    expect(csv[1]).toMatch(
      /^900001,1001,Alice Archer,alice@example.com,Java Backend Developer,Complete,107,130,82,Good,\d{4}-[^,]+Z,$/,
    );
  });

  it('--json: every declared field of a report, null where the service sent none', async () => {
    const json = JSON.parse((await run(['report', '900001', '--type', 'skills', '--json'])).stdout);
    expect(Object.keys(json).slice(0, 16)).toEqual([
      'testInvitationId',
      'testId',
      'candidateEmail',
      'candidateName',
      'attemptedOn',
      'status',
      'score',
      'scorePercentage',
      'candidatePoints',
      'totalTestPoints',
      'testName',
      'pdfReportUrl',
      'PerformanceCategory',
      'reportType',
      'sections',
      'Skills',
    ]);
    expect(json.sections).toBeNull(); // type 2: the service sends skills only
  });

  it("--csv: the columns of report export's summary.csv, in its order, and the same row", async () => {
    const out = join(work.dir, 'export-csv');
    const exported = await run(['report', 'export', '--from', '30d', '--to', '+1d', '--type', 'both', '--out', out]);
    expect(exported.code, exported.stderr).toBe(0);
    const summary = readFileSync(join(out, 'summary.csv'), 'utf8')
      .replace(/^\uFEFF/, '')
      .split('\r\n');
    const one = (await run(['report', '900001', '--csv', '--type', 'both'])).stdout.split('\r\n');
    expect(one[0]).toBe(summary[0]);
    expect(summary).toContain(one[1]);
  });

  it("--json is the shape of each row of an export's summary.json (which adds pdf)", async () => {
    const out = join(work.dir, 'export-json');
    const exported = await run([
      'report',
      'export',
      '--from',
      '30d',
      '--to',
      '+1d',
      '--type',
      'both',
      '--out',
      out,
      '--format',
      'json',
    ]);
    expect(exported.code, exported.stderr).toBe(0);
    const rows = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as Array<Record<string, unknown>>;
    const row = rows.find((r) => r.testInvitationId === 900001)!;
    const one = JSON.parse((await run(['report', '900001', '--json', '--type', 'both'])).stdout);
    const { pdf, ...rest } = row;
    expect(pdf).toBeNull();
    expect(rest).toEqual(one);
    expect(Object.keys(rest)).toEqual(Object.keys(one));
  });

  it("account B's invitation → exit 4", async () => {
    const r = await run(['report', '900008']);
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
  });

  it.each([
    [['report', 'abc'], '<invitationId>'],
    [['report', '900001', '--type', 'full'], '--type'],
    [['report', '900001', '-o', 'x.pdf'], '--output'],
    [['report', '900001', '--pdf', '--type', 'both'], '--type'],
  ])('bad input %j → exit 2 naming %s, nothing sent', async (args, flag) => {
    const before = (await s.requests()).length;
    const r = await run(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(flag);
    expect((await s.requests()).length).toBe(before);
  });
});

describe('assess report --pdf', () => {
  it('writes a real PDF under a sanitised default name from candidate and id, leaving no temp file', async () => {
    const dir = freshDir('default');
    const r = await run(['report', '900001', '--pdf'], dir);
    expect(r.code).toBe(0);
    expect(readdirSync(dir)).toEqual(['report-alice-archer-900001.pdf']);
    const bytes = readFileSync(join(dir, 'report-alice-archer-900001.pdf'));
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(bytes.subarray(-8).toString('latin1')).toMatch(/%%EOF/);
    expect(r.stderr).toContain('Saved the report PDF of invitation 900001');
    expect(r.stdout).toBe('');
  });

  it('-o FILE; an existing file is not overwritten without --force (exit 2, nothing sent); --force replaces it', async () => {
    const dir = freshDir('force');
    const target = join(dir, 'alice.pdf');
    writeFileSync(target, 'keep me');
    const before = (await s.requests()).length;
    const refused = await run(['report', '900001', '--pdf', '-o', target]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/already exists/);
    expect(refused.stderr).toContain('--force');
    expect(readFileSync(target, 'utf8')).toBe('keep me');
    expect((await s.requests()).length).toBe(before);

    const forced = await run(['report', '900001', '--pdf', '-o', target, '--force', '--json']);
    expect(forced.code).toBe(0);
    expect(readFileSync(target).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(JSON.parse(forced.stdout)).toMatchObject({ testInvitationId: 900001, file: target });
    expect(readdirSync(dir)).toEqual(['alice.pdf']);
    // With --pdf, --json a,b picks from what was saved (not from the report's fields).
    const picked = await run(['report', '900001', '--pdf', '-o', target, '--force', '--json', 'file,bytes']);
    expect(picked.code).toBe(0);
    expect(JSON.parse(picked.stdout)).toEqual({ file: target, bytes: expect.any(Number) });
  });

  it('-o LINK writes through the link (it stays a link): with --force onto its file, dangling into the name it points at', async () => {
    const dir = freshDir('through-link');
    mkdirSync(join(dir, 'pdfs'));
    writeFileSync(join(dir, 'pdfs', 'alice.pdf'), 'old');
    symlinkSync('pdfs/alice.pdf', join(dir, 'alice.pdf'));
    const refused = await run(['report', '900001', '--pdf', '-o', join(dir, 'alice.pdf')]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/already exists/);
    const forced = await run(['report', '900001', '--pdf', '-o', join(dir, 'alice.pdf'), '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(lstatSync(join(dir, 'alice.pdf')).isSymbolicLink()).toBe(true);
    expect(
      readFileSync(join(dir, 'pdfs', 'alice.pdf'))
        .subarray(0, 5)
        .toString('latin1'),
    ).toBe('%PDF-');

    symlinkSync('pdfs/bob.pdf', join(dir, 'bob.pdf'));
    const dangling = await run(['report', '900002', '--pdf', '-o', join(dir, 'bob.pdf')]);
    expect(dangling.code, dangling.stderr).toBe(0);
    expect(readlinkSync(join(dir, 'bob.pdf'))).toBe('pdfs/bob.pdf');
    expect(
      readFileSync(join(dir, 'pdfs', 'bob.pdf'))
        .subarray(0, 5)
        .toString('latin1'),
    ).toBe('%PDF-');
    expect(readdirSync(join(dir, 'pdfs')).sort()).toEqual(['alice.pdf', 'bob.pdf']); // no temp file left

    symlinkSync('/dev/null', join(dir, 'null.pdf'));
    const before = await pdfRequests();
    const toDevice = await run(['report', '900001', '--pdf', '-o', join(dir, 'null.pdf'), '--force']);
    expect(toDevice.code).toBe(2);
    expect(toDevice.stderr).toContain(
      `-o: ${join(dir, 'null.pdf')} (a link to /dev/null) is a character device, not a regular file`,
    );
    expect(readlinkSync(join(dir, 'null.pdf'))).toBe('/dev/null');
    expect(await pdfRequests()).toBe(before);
  });

  it('-o DIR puts the default name in that directory; a second run there is refused', async () => {
    const dir = freshDir('into-dir');
    expect((await run(['report', '900002', '--pdf', '-o', dir])).code).toBe(0);
    expect(readdirSync(dir)).toEqual(['report-bob-baker-900002.pdf']);
    const again = await run(['report', '900002', '--pdf', '-o', dir]);
    expect(again.code).toBe(2);
    expect(readdirSync(dir)).toEqual(['report-bob-baker-900002.pdf']);
  });

  it('-o - writes the PDF to stdout', async () => {
    const pdfsBefore = await pdfRequests();
    const r = await run(['report', '900001', '--pdf', '-o', '-']);
    expect(r.code).toBe(0);
    expect(r.stdout.startsWith('%PDF-')).toBe(true);
    expect(await pdfRequests()).toBe(pdfsBefore + 1);
  });

  it('no report yet (Pending) → the service refuses → exit 1 and no file, no temp file', async () => {
    const dir = freshDir('pending');
    const r = await run(['report', '900004', '--pdf', '-o', join(dir, 'r.pdf')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/No report yet/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a missing directory in -o → exit 2, nothing sent', async () => {
    const before = (await s.requests()).length;
    const r = await run(['report', '900001', '--pdf', '-o', join(work.dir, 'no-such-dir', 'r.pdf')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('-o');
    expect(existsSync(join(work.dir, 'no-such-dir'))).toBe(false);
    expect((await s.requests()).length).toBe(before);
  });

  // A throwaway server stands in for a service that fails mid-download.
  it.each([
    ['answers 200 with something that is not a PDF', 'not-pdf', 1, /did not send a PDF/],
    ['drops the connection half-way through the PDF', 'cut', 6, /failed|terminated|aborted|closed|reset/i],
  ])('when the service %s: non-zero exit, no file and no temp file left', async (_what, mode, code, message) => {
    const server = await startServer((_req, res) => {
      if (mode === 'not-pdf') {
        res.writeHead(200, { 'content-type': 'application/pdf' });
        res.end('<html>maintenance</html>');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': '100000' });
      res.write('%PDF-1.7\n' + 'x'.repeat(5000));
      setTimeout(() => res.socket?.destroy(), 50);
    });
    try {
      const dir = freshDir(`broken-${mode}`);
      const r = await runAssess(['report', '77', '--pdf', '-o', join(dir, 'r.pdf')], {
        env: { ASSESS_BASE_URL: server.url, ASSESS_API_KEY: 'sk_test_broken_pdf_1234' },
      });
      expect(r.code).toBe(code);
      expect(r.stderr).toMatch(message);
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
