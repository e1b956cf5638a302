// `report export` files have the same columns every night, whatever the window holds and however
// the service spells or leaves out its fields (quirks mode: production's forms, nulls, missing
// fields): summary.csv fixed, sections and skills in long-format files, a byte order mark for
// Excel, never a `null`/`undefined` heading or cell; JSON rows with one set of keys, the shape of
// `report --json`.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let s: TestSandbox;
const work = tempDir('assess-export-columns-');
beforeAll(async () => {
  s = await startTestSandbox();
  // a candidate whose name Excel shows as ChloÃ© without the mark
  const inv = await s.service<{ testInvitationId: number }>('/v3/tests/1001/invite', {
    email: 'chloe@columns.example',
    name: 'Chloé Martin',
  });
  await s.control('POST', `/invitations/${inv.testInvitationId}/simulate`, { to: 'complete', score: 70 });
});
afterAll(async () => {
  await s?.close();
  work.cleanup();
});
const run = (args: string[]) => runInProcess(args, { env: s.env });

const SUMMARY =
  'testInvitationId,testId,candidateName,candidateEmail,testName,status,candidatePoints,totalTestPoints,scorePercentage,PerformanceCategory,attemptedOn,pdf';
const SECTIONS =
  'testInvitationId,candidateEmail,candidateName,sectionId,sectionName,noOfQue,candidateScore,sectionScore,sectionTime,sectionTimeTaken';
const SKILLS =
  'testInvitationId,candidateEmail,candidateName,sectionId,sectionName,qbId,qbName,noOfQue,candidateQbScore,qbScore';

const lines = (dir: string, name: string) => {
  const text = readFileSync(join(dir, name), 'utf8');
  expect(text.startsWith('\uFEFF'), name).toBe(true);
  return text.slice(1).trimEnd().split('\r\n');
};

describe('report export: fixed columns', () => {
  it('summary.csv, sections.csv, skills.csv: the same headings for any window, a mark for Excel', async () => {
    const wide = join(work.dir, 'wide');
    const one = join(work.dir, 'one');
    expect(
      (await run(['report', 'export', '--from', '30d', '--to', '+1d', '--type', 'both', '--out', wide])).code,
    ).toBe(0);
    // a window with nothing in it: the same three files, headings only
    expect((await run(['report', 'export', '--from', '2000-01-01', '--to', '2000-01-02', '--out', one])).code).toBe(0);
    for (const dir of [wide, one]) {
      expect(lines(dir, 'summary.csv')[0]).toBe(SUMMARY);
      expect(lines(dir, 'sections.csv')[0]).toBe(SECTIONS);
      expect(lines(dir, 'skills.csv')[0]).toBe(SKILLS);
    }
    expect(lines(one, 'summary.csv')).toHaveLength(1);
    const summary = lines(wide, 'summary.csv');
    expect(summary.some((l) => l.includes(',Chloé Martin,chloe@columns.example,'))).toBe(true);
    // one row per attempt and section, per attempt and skill
    const ids = summary.slice(1).map((l) => l.split(',')[0]);
    const sectionIds = new Set(
      lines(wide, 'sections.csv')
        .slice(1)
        .map((l) => l.split(',')[0]),
    );
    expect([...sectionIds].sort()).toEqual([...ids].sort());
    expect(lines(wide, 'skills.csv').length).toBeGreaterThan(ids.length);
  });

  it.each([1, 2, 3, 4, 5, 6, 7, 8])(
    'production-shaped answers (quirks seed %i): no null/undefined heading or cell',
    async (seed) => {
      await s.control('POST', '/quirks', { seed });
      try {
        const out = join(work.dir, `quirks-${seed}`);
        const r = await run(['report', 'export', '--from', '30d', '--to', '+1d', '--type', 'both', '--out', out]);
        expect(r.code, r.stderr).toBe(0);
        const files = { 'summary.csv': SUMMARY, 'sections.csv': SECTIONS, 'skills.csv': SKILLS };
        for (const [name, heading] of Object.entries(files)) {
          const [head, ...rows] = lines(out, name);
          expect(head, name).toBe(heading);
          for (const row of rows) expect(row, name).not.toMatch(/(^|,)(null|undefined|\[object Object\])(,|$)/);
        }
        const json = join(out, 'json');
        const j = await run([
          'report',
          'export',
          '--from',
          '30d',
          '--to',
          '+1d',
          '--type',
          'both',
          '--out',
          json,
          '--format',
          'json',
        ]);
        expect(j.code, j.stderr).toBe(0);
        const rows = JSON.parse(readFileSync(join(json, 'summary.json'), 'utf8')) as Array<Record<string, unknown>>;
        const declared = (row: Record<string, unknown>) => Object.keys(row).slice(0, 16);
        for (const row of rows) {
          expect(declared(row)).toEqual(declared(rows[0]!));
          expect(row).toHaveProperty('pdf');
          if (typeof row.attemptedOn === 'string') expect(row.attemptedOn).toMatch(/Z$/);
        }
      } finally {
        await s.control('POST', '/quirks', { seed: null });
      }
    },
  );
});

describe('report export: files of the user, journals of an older version', () => {
  it('a sections.csv the CLI did not write is refused like a summary.csv (exit 2, nothing sent)', async () => {
    const out = join(work.dir, 'mine');
    mkdirSync(out);
    writeFileSync(join(out, 'sections.csv'), 'my own\n');
    const before = (await s.requests()).length;
    const r = await run(['report', 'export', '--from', '30d', '--out', out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/sections\.csv exists and was not written by assess/);
    expect((await s.requests()).length).toBe(before);
    expect(readFileSync(join(out, 'sections.csv'), 'utf8')).toBe('my own\n');
  });

  it('--since-last-run after an older version: its journaled rows take the one shape', async () => {
    const out = join(work.dir, 'upgrade');
    mkdirSync(out);
    // what an earlier version journaled: fixed fields, sections cut short, skills flattened
    const old = {
      testInvitationId: 800001,
      testId: 1001,
      candidateName: 'Old Row',
      candidateEmail: 'old@example.com',
      testName: 'Java',
      status: 'Complete',
      candidatePoints: 5,
      totalTestPoints: 10,
      scorePercentage: 50,
      PerformanceCategory: 'Average',
      attemptedOn: '2026-01-01T00:00:00Z',
      sections: [{ sectionId: 11, sectionName: 'Core Java', candidateScore: 5, sectionScore: 10 }],
      skills: [{ qbId: 7, qbName: 'OOP', sectionName: 'Core Java', candidateQbScore: 2, qbScore: 4 }],
      pdf: null,
    };
    writeFileSync(
      join(out, 'export.journal.ndjson'),
      `${JSON.stringify({ k: '800001', type: 'summary', pdf: null, row: old })}\n` +
        `${JSON.stringify({ run: { state: 'completed', from: '2000-01-01T00:00:00Z', to: '2000-01-02T00:00:00Z', at: '2000-01-02T00:00:00Z', exported: 1, failed: 0, wrote: 'summary.csv' } })}\n`,
    );
    const r = await run(['report', 'export', '--since-last-run', '--to', '+1d', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    const summary = lines(out, 'summary.csv');
    expect(summary[0]).toBe(SUMMARY);
    expect(summary[1]).toBe('800001,1001,Old Row,old@example.com,Java,Complete,5,10,50,Average,2026-01-01T00:00:00Z,');
    expect(lines(out, 'sections.csv')[1]).toBe('800001,old@example.com,Old Row,11,Core Java,,5,10,,');
    expect(lines(out, 'skills.csv')[1]).toBe('800001,old@example.com,Old Row,,Core Java,7,OOP,,2,4');
  });
});

describe('--json without fields: one set of keys', () => {
  it('attempts list rows carry every declared field, null where the service left it out', async () => {
    await s.control('POST', '/quirks', { seed: 1 }); // a seed whose listing leaves fields out
    try {
      const r = await run(['attempts', 'list', '--state', 'completed', '--from', '30d', '--to', '+1d', '--json']);
      expect(r.code, r.stderr).toBe(0);
      const rows = JSON.parse(r.stdout) as Array<Record<string, unknown>>;
      expect(rows.length).toBeGreaterThan(1);
      const want = ['testInvitationId', 'testId', 'name', 'email', 'invitationtype', 'testStatus'];
      for (const row of rows) expect(Object.keys(row).slice(0, want.length)).toEqual(want);
      // the seed did leave some out: they are there, as null
      expect(rows.some((row) => want.some((k) => row[k] === null))).toBe(true);
    } finally {
      await s.control('POST', '/quirks', { seed: null });
    }
  });
});
