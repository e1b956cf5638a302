// `--api v2` in-process against the sandbox: every v2 endpoint via a command, the
// deprecation notice (and `config set v2.warn false`), account isolation (exit 4, nothing sent
// changes anything), commands without a v2 operation (exit 2, nothing sent), and links migrate
// (shared links: nothing to create; a separate v3 service: created once, accepted by v3).
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { runInProcess as runAssess } from '../helpers/in-process.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let s: TestSandbox;
beforeAll(async () => {
  s = await startTestSandbox();
});
afterAll(async () => s?.close());

const v2 = (args: string[], env: Record<string, string> = {}) =>
  runAssess(['--api', 'v2', ...args], { env: { ...s.env, ...env } });
const NOTICE = /warning: the v2 API is deprecated; v3 replaces it .*assess config set v2\.warn false/;
const v2Requests = async () => (await s.requests()).filter((r) => r.path.startsWith('/v2/'));

describe('every v2 endpoint through the CLI', () => {
  it('tests list (page_no/page_size) and --all', async () => {
    const r = await v2(['tests', 'list', '--page-size', '3', '--json', 'testId']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([{ testId: 1001 }, { testId: 1002 }, { testId: 1003 }]);
    expect((await v2Requests()).at(-1)!.path).toBe('/v2/org/tests?page_no=1&page_size=3');
    const all = await v2(['tests', 'list', '--page-size', '3', '--all']);
    expect(
      all.stdout
        .trim()
        .split('\n')
        .map((l) => l.split('\t')[0]),
    ).toEqual(['1001', '1002', '1003', '1004']);
  });
  it('tests get: the v2 detail with sections', async () => {
    const r = await v2(['tests', 'get', '1001', '--json']);
    expect(JSON.parse(r.stdout)).toMatchObject({
      testId: 1001,
      accessKey: expect.any(String),
      sections: [{ sectionName: 'Core Java', questions: 14 }, { sectionName: 'Coding' }],
    });
  });
  it('invite → register (takeTestURL); twice = the same record with the new name and callback', async () => {
    const a = await v2(['invite', '1002', '--email', 'e2e2@example.com', '--name', 'First Name', '--json']);
    expect(a.code).toBe(0);
    const first = JSON.parse(a.stdout);
    expect(first).toEqual({
      testInvitationId: expect.any(Number),
      takeTestURL: expect.stringContaining('/take/'),
      emailed: false, // v2 registration has no sendEmail
    });
    expect(a.stderr).toContain('No e-mail sent (v2 registration sends none)');
    const b = await v2([
      'invite',
      '1002',
      '--email',
      'e2e2@example.com',
      '--name',
      'Second Name',
      '--callback-url',
      'https://hooks.example/x',
      '--json',
    ]);
    expect(JSON.parse(b.stdout)).toEqual(first);
    const inv = await s.control<any>('GET', `/invitations/${first.testInvitationId}`);
    expect(inv).toMatchObject({ name: 'Second Name', callbackUrl: 'https://hooks.example/x' });
    expect((await s.control<any>('GET', '/invitations?email=e2e2@example.com')).invitations).toHaveLength(1);
  });
  it('invite --link → register via test link (testUrl, testAccessTime)', async () => {
    const r = await v2([
      'invite',
      '1001',
      '--link',
      '5002',
      '--email',
      'bylink@example.com',
      '--name',
      'By Link',
      '--json',
    ]);
    expect(JSON.parse(r.stdout)).toEqual({
      testInvitationId: expect.any(Number),
      testUrl: expect.stringContaining('/take/'),
      testAccessTime: expect.stringContaining('Time bound'),
      emailed: false,
    });
    expect((await v2Requests()).at(-1)).toMatchObject({
      method: 'POST',
      path: '/v2/org/tests/1001/testlinks/5002/register',
      body: { emailId: 'bylink@example.com', fullName: 'By Link' },
    });
  });
  it('invite flags v2 has no field for are refused before anything is sent', async () => {
    const before = (await v2Requests()).length;
    const r = await v2(['invite', '1001', '--email', 'x@example.com', '--name', 'X', '--start', 'now', '--end', '2d']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--start: v2 registration has no such setting');
    expect((await v2Requests()).length).toBe(before);
  });
  it('report, report --sections, report --pdf', async () => {
    const r = await v2(['report', '900001', '--json']);
    expect(JSON.parse(r.stdout)).toMatchObject({
      emailId: 'alice@example.com',
      testStatus: 'Completed',
      reportStatus: 'Generated',
      wv: expect.any(Number),
      tv: expect.any(Number),
      totalScore: '130',
    });
    const sec = await v2(['report', '900001', '--sections', '--csv']);
    expect(sec.stdout.split('\r\n')[0]).toBe('sectionName,candidateScore,sectionScore');
    const dir = tempDir();
    const pdf = await v2(['report', '900001', '--pdf', '-o', dir.dir]);
    expect(pdf.code).toBe(0);
    expect(readFileSync(join(dir.dir, 'report-alice-archer-900001.pdf')).subarray(0, 5).toString()).toBe('%PDF-');
    expect((await v2Requests()).at(-1)!.path).toBe('/v2/org/report/900001/pdf');
    dir.cleanup();
    expect((await v2(['report', '900001', '--type', 'both'])).code).toBe(2);
  });
  it('links list / get in v2 shape', async () => {
    const list = JSON.parse((await v2(['links', 'list', '1001', '--json'])).stdout);
    expect(list.slice(0, 4).map((l: any) => l.accessTime)).toEqual([0, 1, 2, 0]);
    const one = JSON.parse((await v2(['links', 'get', '1001', '5003', '--json'])).stdout);
    expect(one).toMatchObject({
      testLinkId: 5003,
      accessTime: 2,
      startDateTime: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/),
    });
  });
  it('links create / update: the friendly flags become accessTime, inviteCandidateOnly, imageProctoring, testLinkStatus', async () => {
    const c = await v2([
      'links',
      'create',
      '1003',
      '--name',
      'E2E v2',
      '--start',
      '2031-05-01T08:00:00Z',
      '--end',
      '2031-05-03T18:00:00Z',
      '--slotwise',
      '--tz',
      '5',
      '--type',
      'email',
      '--proctoring',
      'image',
      '--json',
    ]);
    expect(c.code).toBe(0);
    const created = JSON.parse(c.stdout);
    expect((await v2Requests()).at(-1)!.body).toEqual({
      testLinkName: 'E2E v2',
      accessTime: 2,
      timeZoneId: 5,
      inviteCandidateOnly: 1,
      imageProctoring: 1,
      testLinkStatus: 1,
      startDateTime: '2031-05-01T08:00:00',
      endDateTime: '2031-05-03T18:00:00',
    });
    const u = await v2([
      'links',
      'update',
      '1003',
      String(created.testLinkId),
      '--status',
      'inactive',
      '--anytime',
      '--json',
    ]);
    expect(u.code).toBe(0);
    expect(u.stderr).toContain('testLinkStatus: 1 → 3');
    expect(u.stderr).toContain('accessTime: 2 → 0');
    expect(JSON.parse(u.stdout)).toMatchObject({
      testLinkStatus: 3,
      accessTime: 0,
      startDateTime: null,
      inviteCandidateOnly: 1,
    });
    const v3 = await runAssess(['links', 'get', '1003', String(created.testLinkId), '--json'], { env: s.env });
    expect(JSON.parse(v3.stdout)).toMatchObject({
      testLinkStatus: 'inactive',
      invitationSchedule: { scheduleType: 'validityindays' },
    });
    expect((await v2(['links', 'create', '1003', '--name', 'x', '--valid-days', '7', '--tz', '1'])).code).toBe(2);
    expect((await runAssess(['links', 'create', '1003', '--name', 'x', '--anytime'], { env: s.env })).code).toBe(2);
  });
});

describe('--json field lists in v2 names', () => {
  // The fields are checked before anything is sent, against what the v2 path prints.
  it('invite (takeTestURL), invite --link (testAccessTime), links (accessTime), report (fullName), --sections', async () => {
    const inv = await v2([
      'invite',
      '1002',
      '--email',
      'fields@example.com',
      '--name',
      'Field Names',
      '--json',
      'takeTestURL',
    ]);
    expect(inv.code).toBe(0);
    expect(JSON.parse(inv.stdout)).toEqual({ takeTestURL: expect.stringContaining('/take/') });
    const byLink = await v2([
      'invite',
      '1001',
      '--link',
      '5002',
      '--email',
      'fields@example.com',
      '--name',
      'Field Names',
      '--json',
      'testInvitationId,testAccessTime',
    ]);
    expect(Object.keys(JSON.parse(byLink.stdout))).toEqual(['testInvitationId', 'testAccessTime']);
    const links = await v2(['links', 'list', '1001', '--json', 'testLinkId,accessTime']);
    expect(JSON.parse(links.stdout)[0]).toEqual({ testLinkId: expect.any(Number), accessTime: 0 });
    const report = await v2(['report', '900001', '--json', 'fullName,testStatus']);
    expect(JSON.parse(report.stdout)).toEqual({ fullName: expect.any(String), testStatus: 'Completed' });
    const sections = await v2(['report', '900001', '--sections', '--json', 'sectionName']);
    expect(JSON.parse(sections.stdout)[0]).toEqual({ sectionName: expect.any(String) });
    const detail = await v2(['tests', 'get', '1001', '--json', 'testId,sections']);
    expect(JSON.parse(detail.stdout)).toMatchObject({ testId: 1001, sections: expect.any(Array) });
  });
});

describe('deprecation notice', () => {
  it('one line on stderr for a v2 command, none with v3; off with config v2.warn false', async () => {
    const cfg = tempDir();
    const on = await runAssess(['--api', 'v2', 'tests', 'list'], { env: s.env, configDir: cfg.dir });
    expect(on.stderr).toMatch(NOTICE);
    expect(on.stderr.trim().split('\n')).toHaveLength(1);
    expect(on.stdout).not.toMatch(/deprecated/);
    expect((await runAssess(['tests', 'list'], { env: s.env, configDir: cfg.dir })).stderr).not.toMatch(/deprecated/);
    expect((await runAssess(['config', 'set', 'v2.warn', 'false'], { env: s.env, configDir: cfg.dir })).code).toBe(0);
    const off = await runAssess(['--api', 'v2', 'tests', 'list'], { env: s.env, configDir: cfg.dir });
    expect(off.code).toBe(0);
    expect(off.stderr).toBe('');
    cfg.cleanup();
  });
  it('the profile setting api: v2 selects v2 without the flag; --api v3 overrides it', async () => {
    const cfg = tempDir();
    await runAssess(['config', 'set', 'api', 'v2'], { env: s.env, configDir: cfg.dir });
    const r = await runAssess(['links', 'get', '1001', '5001', '--json'], { env: s.env, configDir: cfg.dir });
    expect(JSON.parse(r.stdout)).toHaveProperty('accessTime', 0);
    expect(r.stderr).toMatch(NOTICE);
    const v3 = await runAssess(['--api', 'v3', 'links', 'get', '1001', '5001', '--json'], {
      env: s.env,
      configDir: cfg.dir,
    });
    expect(JSON.parse(v3.stdout)).toHaveProperty('invitationSchedule');
    const refused = await runAssess(['settings', 'get', '1001'], { env: s.env, configDir: cfg.dir });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--api v3');
    cfg.cleanup();
  });
});

describe('account isolation through the CLI', () => {
  const B = () => ({ ASSESS_API_KEY: s.otherKey });
  it.each([
    ['tests get', ['tests', 'get', '1001']],
    ['register', ['invite', '1001', '--email', 'b@example.com', '--name', 'B']],
    ['register via link', ['invite', '1001', '--link', '5002', '--email', 'b@example.com', '--name', 'B']],
    ['report', ['report', '900001']],
    ['section report', ['report', '900001', '--sections']],
    ['report pdf', ['report', '900001', '--pdf', '-o', '-']],
    ['links list', ['links', 'list', '1001']],
    ['links get', ['links', 'get', '1001', '5002']],
    ['links create', ['links', 'create', '1001', '--name', 'hijack', '--anytime']],
    ['links update', ['links', 'update', '1001', '5002', '--status', 'inactive']],
  ])('%s with account B’s key → exit 4, nothing changed', async (_n, args) => {
    const before = await s.control<any>('GET', '/state');
    const r = await v2(args, B());
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/HTTP 403: .*does not belong to this account/);
    const after = await s.control<any>('GET', '/state');
    expect({ ...after, requests: [] }).toEqual({ ...before, requests: [] });
  });
});

describe('links update under answers that leave fields out (quirks)', () => {
  // Seeds 51 and 56 once made a rename open an e-mail-only link / turn image proctoring off
  // (the answer lacked the field, a default was sent); others refused a rename over "no dates".
  type Link = { testLinkId: number; testLinkName: string; updatedAt?: string };
  const linkIn = async (id: number) => {
    const {
      testLinkName: _n,
      updatedAt: _u,
      ...rest
    } = (await s.control<{ links: Link[] }>('GET', '/state')).links.find((l) => l.testLinkId === id)!;
    return rest;
  };
  afterAll(async () => s.control('DELETE', '/quirks'));
  it.each([41, 44, 49, 51, 54, 55, 56, 59, 61, 62, 65])(
    'seed %i: a rename changes the name only, or is refused (exit 1) with nothing sent',
    async (seed) => {
      for (const id of [5002, 5003]) {
        const before = await linkIn(id);
        const posts = (await v2Requests()).filter((r) => r.method === 'POST').length;
        await s.control('POST', '/quirks', { seed });
        const r = await v2(['links', 'update', '1001', String(id), '--name', `Q${seed}`]);
        await s.control('DELETE', '/quirks');
        expect(await linkIn(id)).toEqual(before);
        if (r.code === 0) continue;
        expect(r.code, r.stderr).toBe(1);
        expect(r.stderr).toMatch(
          /answers for test link \d+ left out .*nothing was sent\n.*try again, or give the values? yourself \(--/,
        );
        expect((await v2Requests()).filter((x) => x.method === 'POST')).toHaveLength(posts);
      }
    },
  );
});

describe('commands without a v2 operation', () => {
  it.each([
    ['attempts list', ['attempts', 'list', '--state', 'completed', '--from', '7d', '--to', 'now']],
    ['attempts cancel', ['attempts', 'cancel', '900004', '--yes']],
    ['reattempt', ['reattempt', '900001', '--start', 'now', '--end', '3d', '--tz', '1']],
    ['callbacks process', ['callbacks', 'process', '900001']],
    ['settings get', ['settings', 'get', '1001']],
    ['settings set', ['settings', 'set', '1001', '--set', 'questionSettings.randomAnswers=1', '--yes']],
    ['report export', ['report', 'export', '--from', '7d', '--out', join(tmpdir(), 'assess-v2-refused-never-made')]],
    ['invite --from-csv', ['invite', '1001', '--from-csv', '-']],
  ])('%s --api v2 → exit 2, says so, sends nothing', async (name, args) => {
    const before = (await s.requests()).length;
    const r = await runAssess(['--api', 'v2', ...args], { env: s.env, stdin: 'email,name\nq@example.com,Q\n' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${name}: not available in the v2 API`);
    expect((await s.requests()).length).toBe(before);
  });
});

describe('links migrate', () => {
  it('where v2 links are the v3 links (the sandbox): every link already exists, --apply creates nothing', async () => {
    const before = (await s.requests()).filter((r) => r.method === 'POST').length;
    const r = await runAssess(['links', 'migrate', '1001', '--apply', '--json'], { env: s.env });
    expect(r.code).toBe(0);
    const rows = JSON.parse(r.stdout);
    expect(rows.length).toBeGreaterThanOrEqual(4);
    expect(rows.every((x: any) => x.action === 'exists' && x.v3TestLinkId === x.v2TestLinkId)).toBe(true);
    expect(rows[1]).toMatchObject({
      v2TestLinkId: 5002,
      scheduleType: 'timebound',
      v3Link: { invitationSchedule: { scheduleDetails: { startDateTime: expect.stringMatching(/Z$/) } } },
    });
    expect(r.stderr).toMatch(/0 created, \d+ already in v3 \(not created again\)/);
    expect((await s.requests()).filter((x) => x.method === 'POST').length).toBe(before);
  });

  it('into a separate v3 service: shows the v3 objects, --apply creates them once (old id → new id), v3 accepts and lists them', async () => {
    const source = await startTestSandbox(); // the v2 service
    const target = await startTestSandbox(); // the v3 service
    try {
      const mk = async (body: object) => {
        const res = await fetch(`${source.sb.baseUrlV2}/v2/org/tests/1003/testlinks`, {
          method: 'POST',
          headers: { 'x-api-key': source.sb.keys[0]!, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        return ((await res.json()) as any).result.testLinkId as number;
      };
      const anytime = await mk({ testLinkName: 'M anytime', inviteCandidateOnly: 1 });
      const bound = await mk({
        testLinkName: 'M bound',
        accessTime: 1,
        imageProctoring: 1,
        startDateTime: '2031-01-01T09:00:00',
        endDateTime: '2031-01-08T09:00:00',
        timeZoneId: 3,
      });
      const slots = await mk({
        testLinkName: 'M slots',
        accessTime: 2,
        testLinkStatus: 3,
        startDateTime: '2031-02-01T09:00:00',
        endDateTime: '2031-02-08T12:00:00',
      });
      const env = { ...s.env, ASSESS_BASE_URL: target.sb.baseUrl, ASSESS_BASE_URL_V2: source.sb.baseUrlV2 };

      const dry = JSON.parse((await runAssess(['links', 'migrate', '1003', '--json'], { env })).stdout);
      const byId = (rows: any[], id: number) => rows.find((x) => x.v2TestLinkId === id);
      expect(byId(dry, anytime)).toMatchObject({
        action: 'create',
        scheduleType: 'validityindays',
        v3Link: {
          invitationType: 'email',
          invitationSchedule: { scheduleDetails: { invitationValidityInDays: 3650 } },
        },
      });
      expect(byId(dry, bound)).toMatchObject({
        action: 'create',
        v3Link: {
          proctoringSettings: { proctoringMode: 'image' },
          invitationSchedule: {
            scheduleType: 'timebound',
            scheduleDetails: { startDateTime: '2031-01-01T09:00:00Z', timeZoneId: 3 },
          },
        },
      });
      expect(byId(dry, slots)).toMatchObject({
        action: 'create',
        v3Link: { testLinkStatus: 'inactive', invitationSchedule: { scheduleType: 'slotwise' } },
      });
      expect(byId(dry, 5006)).toMatchObject({ action: 'exists', v3TestLinkId: 5006 });
      expect((await target.requests()).filter((x) => x.method === 'POST')).toEqual([]);

      const applied = await runAssess(['links', 'migrate', '1003', '--apply'], { env });
      expect(applied.code).toBe(0);
      expect(applied.stderr).toMatch(/3 created, 1 already in v3/);
      const table = applied.stdout
        .trim()
        .split('\n')
        .map((l) => l.split('\t'));
      const mapping = Object.fromEntries(table.filter((c) => c[7] === 'created').map((c) => [c[0], c[8]]));
      expect(Object.keys(mapping).sort()).toEqual([anytime, bound, slots].map(String).sort());

      const listed = JSON.parse((await runAssess(['links', 'list', '1003', '--json'], { env })).stdout);
      const v3 = (id: string) => listed.find((l: any) => String(l.testLinkId) === id);
      expect(v3(mapping[bound]!)).toMatchObject({
        testLinkName: 'M bound',
        invitationSchedule: { scheduleType: 'timebound' },
        proctoringSettings: { proctoringMode: 'image' },
      });
      expect(v3(mapping[slots]!)).toMatchObject({
        testLinkName: 'M slots',
        testLinkStatus: 'inactive',
        invitationSchedule: { scheduleType: 'slotwise' },
      });
      expect(v3(mapping[anytime]!)).toMatchObject({
        testLinkName: 'M anytime',
        invitationType: 'email',
        invitationSchedule: { scheduleType: 'validityindays' },
      });

      const again = await runAssess(['links', 'migrate', '1003', '--apply', '--json'], { env });
      expect(again.stderr).toMatch(/0 created, 4 already in v3/);
      expect(
        JSON.parse(again.stdout)
          .filter((x: any) => x.action === 'exists')
          .map((x: any) => String(x.v3TestLinkId)),
      ).toEqual(expect.arrayContaining(Object.values(mapping)));
      expect(JSON.parse((await runAssess(['links', 'list', '1003', '--json'], { env })).stdout)).toHaveLength(
        listed.length,
      );
    } finally {
      await source.close();
      await target.close();
    }
  });
});
