// `report export`'s summary.json / summary.ndjson follow the id rule of every other output: ids
// are JSON numbers (the report's testId is a string on the wire), also for rows an earlier run
// journaled.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let s: TestSandbox;
const work = tempDir('assess-export-ids-');
beforeAll(async () => {
  s = await startTestSandbox();
});
afterAll(async () => {
  await s?.close();
  work.cleanup();
});
const run = (args: string[]) => runInProcess(args, { env: s.env });

type Skill = { qbId: unknown; candidateQbScore: unknown };
type Row = {
  testInvitationId: unknown;
  testId: unknown;
  sections: Array<{ sectionId: unknown; Skills?: Skill[] | null }>;
  Skills: Skill[] | null;
};
// the report's own shape: skills inside their sections (type both), or at the top (type skills)
const skillsOf = (r: Row) => [...(r.Skills ?? []), ...r.sections.flatMap((x) => x.Skills ?? [])];
const idsOf = (r: Row) => [
  r.testInvitationId,
  r.testId,
  ...r.sections.map((x) => x.sectionId),
  ...skillsOf(r).map((x) => x.qbId),
];

describe('report export: ids in the summary file are numbers', () => {
  it('summary.json: testId, testInvitationId, sectionId, qbId are numbers; a --since-last-run re-write keeps them so', async () => {
    const out = join(work.dir, 'json');
    const r = await run(['report', 'export', '--from', '30d', '--out', out, '--format', 'json', '--type', 'both']);
    expect(r.code, r.stderr).toBe(0);
    const rows = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as Row[];
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      expect(row.testId).toBe(1001);
      for (const id of idsOf(row)) expect(typeof id).toBe('number');
      expect(typeof skillsOf(row)[0]?.candidateQbScore).toBe('number');
    }
    // one more completed attempt: the re-written summary takes the earlier rows from the journal
    const inv = await s.service<{ testInvitationId: number }>('/v3/tests/1001/invite', {
      email: 'later@export.example',
      name: 'Later Person',
    });
    await s.control('POST', `/invitations/${inv.testInvitationId}/simulate`, { to: 'complete', score: 40 });
    const again = await run([
      'report',
      'export',
      '--since-last-run',
      '--to',
      '+1h',
      '--out',
      out,
      '--format',
      'json',
      '--type',
      'both',
    ]);
    expect(again.code, again.stderr).toBe(0);
    const grown = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as Row[];
    expect(grown).toHaveLength(4);
    expect(grown.slice(0, 3)).toEqual(rows);
    expect(grown[3]).toMatchObject({ testInvitationId: inv.testInvitationId, testId: 1001 });
  });

  it('summary.ndjson: the same', async () => {
    const out = join(work.dir, 'ndjson');
    const r = await run(['report', 'export', '--from', '30d', '--out', out, '--format', 'ndjson']);
    expect(r.code, r.stderr).toBe(0);
    const rows = readFileSync(join(out, 'summary.ndjson'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Row);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.testId).toBe(1001);
  });
});
