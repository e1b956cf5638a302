// `assess report stats` against a sandbox seeded with a cohort whose numbers are worked out by
// hand below: test 1003 (Data Analyst) has SQL worth 80 points and Statistics worth 20, so a
// candidate's points are their percentage. Validation is checked to send nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../helpers/http-server.js';
import { runInProcess } from '../helpers/in-process.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let s: TestSandbox;
const run = (args: string[], env: Record<string, string> = {}) => runInProcess(args, { env: { ...s.env, ...env } });
// the sandbox stamps finish times with milliseconds; `--to now` is cut to the second
const WINDOW = ['--from', '1d', '--to', '+1h', '--test', '1003'];

/** [name, move, SQL %, Statistics %] → points SQL round(% × 80), Statistics round(% × 20). */
const COHORT: Array<[string, 'complete' | 'leave' | 'terminate' | 'expire' | 'cancel', number?, number?]> = [
  ['Ann', 'complete', 100, 50], // 80 + 10 = 90 %
  ['Bo', 'complete', 50, 100], // 40 + 20 = 60 %
  ['Cy', 'complete', 75, 0], // 60 + 0 = 60 %
  ['Di', 'leave', 25, 50], // 20 + 10 = 30 %
  ['Ed', 'terminate', 100, 100], // 100 %
  ['Flo', 'cancel'],
  ['Gus', 'expire'],
];
const ids: string[] = [];

beforeAll(async () => {
  s = await startTestSandbox();
  for (const [name, move, sql, st] of COHORT) {
    const r = await run([
      'invite',
      '1003',
      '--email',
      `${name.toLowerCase()}@example.com`,
      '--name',
      name,
      '--json',
      'testInvitationId',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const id = String((JSON.parse(r.stdout) as { testInvitationId: number }).testInvitationId);
    ids.push(id);
    if (move === 'cancel') expect((await run(['attempts', 'cancel', id, '--yes'])).code).toBe(0);
    else
      await s.control('POST', `/invitations/${id}/simulate`, {
        to: move,
        ...(sql !== undefined ? { sectionScores: [sql, st] } : {}),
      });
  }
});
afterAll(async () => {
  await s?.close();
});

describe('assess report stats', () => {
  it('--json: the numbers of the hand-worked cohort', async () => {
    const r = await run(['report', 'stats', ...WINDOW, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(Object.keys(j)).toEqual([
      'state',
      'from',
      'to',
      'testId',
      'count',
      'scored',
      'failed',
      'score',
      'histogram',
      'categories',
      'sections',
      'skills',
      'funnel',
      'timeToComplete',
    ]);
    expect(j).toMatchObject({ state: 'completed', testId: 1003, count: 5, scored: 5, failed: 0 });
    // sorted 30 60 60 90 100: mean 340/5; p25 at rank 1, p75 at rank 3, p90 at rank 3.6 → 90 + 0.6 × 10
    expect(j.score).toEqual({ mean: 68, median: 60, p25: 60, p75: 90, p90: 96, min: 30, max: 100 });
    expect(j.histogram).toHaveLength(10);
    expect(
      j.histogram
        .filter((b: { count: number }) => b.count)
        .map((b: { from: number; count: number }) => [b.from, b.count]),
    ).toEqual([
      [30, 1],
      [60, 2],
      [90, 2],
    ]);
    expect(j.categories).toEqual([
      { category: 'Average', count: 2 },
      { category: 'Excellent', count: 2 },
      { category: 'Needs Improvement', count: 1 },
    ]);
    // SQL: 100 50 75 25 100 % (80 40 60 20 80 of 80); Statistics: 50 100 0 50 100 % (10 20 0 10 20 of 20)
    expect(j.sections).toEqual([
      { id: 31, name: 'SQL', attempts: 5, meanPoints: 56, meanOutOf: 80, meanPercent: 70 },
      { id: 32, name: 'Statistics', attempts: 5, meanPoints: 12, meanOutOf: 20, meanPercent: 60 },
    ]);
    expect(j.skills.map((k: { name: string }) => k.name)).toEqual(['Joins', 'Aggregation', 'Descriptive statistics']);
    expect(j.skills[2]).toEqual({
      id: 321,
      name: 'Descriptive statistics',
      sectionName: 'Statistics',
      attempts: 5,
      meanPoints: 12,
      meanOutOf: 20,
      meanPercent: 60,
    });
    expect(j.funnel).toEqual({
      invited: 7,
      started: 5,
      completed: 3,
      left: 1,
      terminated: 1,
      cancelled: 1,
      expired: 1,
    });
  });

  it('time to complete: the minutes the reports say were used, against 45 allocated', async () => {
    const used: number[] = [];
    for (const id of ids.slice(0, 5)) {
      const r = await run(['report', id, '--json', 'sections']);
      const secs = (JSON.parse(r.stdout).sections as Array<{ sectionTimeTaken: number }>).reduce(
        (a, x) => a + x.sectionTimeTaken,
        0,
      );
      used.push(secs / 60);
    }
    used.sort((a, b) => a - b);
    const r = await run(['report', 'stats', ...WINDOW, '--json', 'timeToComplete']);
    const t = JSON.parse(r.stdout).timeToComplete;
    expect(t.attempts).toBe(5);
    expect(t.meanAllocated).toBe(45); // SQL 30 + Statistics 15 minutes
    expect(t.median).toBeCloseTo(used[2]!, 2);
    expect(t.min).toBeCloseTo(used[0]!, 2);
    expect(t.max).toBeCloseTo(used[4]!, 2);
  });

  it('lists all three states once each and fetches each report once, with sections and skills', async () => {
    await s.control('DELETE', '/requests');
    expect((await run(['report', 'stats', ...WINDOW, '--json', 'count'])).code).toBe(0);
    const reqs = await s.requests();
    expect(
      reqs.filter((q) => q.path.startsWith('/v3/candidates/testattempts')).map((q) => q.path.split('state=')[1]),
    ).toEqual(expect.arrayContaining(['completed', 'cancelled', 'expired']));
    expect(reqs.filter((q) => q.path.startsWith('/v3/reports/')).map((q) => q.path)).toEqual(
      expect.arrayContaining(ids.slice(0, 5).map((id) => `/v3/reports/${id}?reportType=3`)),
    );
    expect(reqs).toHaveLength(3 + 5);
  });

  it('--state expired: the expired attempts, unscored; --test narrows the funnel too', async () => {
    const r = await run(['report', 'stats', ...WINDOW, '--state', 'expired', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j).toMatchObject({ state: 'expired', count: 1, scored: 0, score: null });
    expect(j.funnel.invited).toBe(7);
  });

  it('--csv: metric,name,value rows', async () => {
    const r = await run(['report', 'stats', ...WINDOW, '--csv']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\r\n'); // RFC 4180 line ends
    expect(lines[0]).toBe('metric,name,value');
    expect(lines).toEqual(
      expect.arrayContaining([
        'count,,5',
        'score.p90,,96',
        'histogram,60-70,2',
        'section.meanPercent,SQL,70',
        'funnel,left,1',
      ]),
    );
    expect(lines).toContain('skill.meanPercent,Statistics / Descriptive statistics,60');
  });

  it('a terminal: charts with ASCII bars under TERM=dumb, every part named', async () => {
    const { runCli } = await import('../../src/cli/program.js');
    const { memoryProcess } = await import('../helpers/memory-io.js');
    const { tempDir } = await import('../helpers/cli.js');
    const conf = tempDir();
    const p = memoryProcess({ ...s.env, ASSESS_CONFIG_DIR: conf.dir, TERM: 'dumb' }, { tty: true });
    const code = await runCli(['report', 'stats', ...WINDOW], p);
    conf.cleanup();
    expect(code, p.err()).toBe(0);
    const out = p.out();
    expect(out).toMatch(
      /^5 completed attempts\n  from \d{4}-\d\d-\d\d \d\d:\d\d UTC · to \d{4}-\d\d-\d\d \d\d:\d\d UTC · test 1003 · 5 scored\n/,
    );
    expect(out).toContain('mean 68 · median 60 · p25 60 · p75 90 · p90 96 · min 30 · max 100');
    expect(out).toMatch(/ {2}60–70 +#{40} {2}2\n/);
    expect(out).toMatch(/ {2}30–40 +#{20}\.{20} {2}1\n/);
    expect(out).toMatch(/ {2}SQL +#+\.+ {2}70 % {2}56 \/ 80 points/);
    expect(out).toMatch(/ {2}invited +#{10,} {2}7\n/);
    expect(out).not.toMatch(/[█░]/);
  });

  it('no attempts in the window: zeros and nulls, exit 0', async () => {
    const r = await run(['report', 'stats', '--from', '2020-01-01', '--to', '2020-02-01', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      count: 0,
      scored: 0,
      score: null,
      sections: [],
      timeToComplete: null,
    });
  });
});

describe('assess report stats: refused before anything is sent (exit 2)', () => {
  it.each([
    [['report', 'stats'], /--from: is required/],
    [['report', 'stats', '--from', '1d', '--to', '3d'], /--to: must be after --from/],
    [['report', 'stats', '--from', 'last tuesday'], /--from: .*not a time/],
    [['report', 'stats', '--from', '1d', '--state', 'done'], /--state: must be completed, cancelled or expired/],
    [['report', 'stats', '--from', '1d', '--test', 'abc'], /--test: must be a positive integer id/],
    [['report', 'stats', '--from', '1d', '--concurrency', '0'], /--concurrency: must be at least 1/],
    [['report', 'stats', '--from', '1d', '--json', 'nope'], /nope/],
    [['--api', 'v2', 'report', 'stats', '--from', '1d'], /v2/],
  ])('%j', async (args, message) => {
    await s.control('DELETE', '/requests');
    const r = await run(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split('\n').length).toBeLessThanOrEqual(2);
    expect(await s.requests()).toEqual([]);
  });
});

describe('assess report stats against answers the sandbox does not give', () => {
  it('a report the service refuses is left out and named, the numbers still printed, exit 5; odd values are read', async () => {
    const attempts = [1, 2, 3].map((id) => ({
      testInvitationId: id,
      testId: 7,
      name: `C${id}`,
      email: `c${id}@x`,
      testStatus: 'Complete',
    }));
    const srv = await startServer((req, res) => {
      const json = (status: number, body: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (req.url.startsWith('/v3/candidates/testattempts'))
        return json(200, {
          result: { testAttempts: req.url.includes('state=completed') ? attempts : [] },
          errors: null,
        });
      if (req.url.startsWith('/v3/reports/2')) return json(500, { errors: ['report generation failed'] });
      // production's forms: a string percentage, points without a percentage, sectionID
      if (req.url.startsWith('/v3/reports/1'))
        return json(200, {
          testInvitationId: 1,
          scorePercentage: '40',
          sections: [{ sectionID: 9, sectionName: 'S', candidateScore: 4, sectionScore: 10 }],
        });
      return json(200, { testInvitationId: 3, candidatePoints: 8, totalTestPoints: 10, sections: null });
    });
    try {
      const r = await runInProcess(['report', 'stats', '--from', '7d', '--json'], {
        env: { ASSESS_BASE_URL: srv.url, ASSESS_API_KEY: 'k_test_0123456789' },
      });
      expect(r.code).toBe(5);
      const j = JSON.parse(r.stdout);
      expect(j).toMatchObject({ count: 3, scored: 2, failed: 1, score: { mean: 60, min: 40, max: 80 } });
      expect(j.sections).toEqual([{ id: 9, name: 'S', attempts: 1, meanPoints: 4, meanOutOf: 10, meanPercent: 40 }]);
      expect(r.stderr).toMatch(/report 2: .*report generation failed/);
      expect(r.stderr).toMatch(/1 of 3 report\(s\) could not be fetched/);
    } finally {
      await srv.close();
    }
  });
});
