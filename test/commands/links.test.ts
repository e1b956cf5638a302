// `assess links list|get|create|update` against the sandbox: output formats, the friendly
// schedule flags as the service receives them, update = read + merge + whole object, the
// documented errors, and bad input stopped before any request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess as runAssess } from '../helpers/in-process.js';
import { json, startServer } from '../helpers/http-server.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let s: TestSandbox;
beforeAll(async () => {
  s = await startTestSandbox();
});
afterAll(async () => s?.close());

const run = (args: string[]) => runAssess(args, { env: s.env });
const serviceRequests = async () => (await s.requests()).filter((r) => r.path.startsWith('/v3/'));
/** Runs the CLI and returns what reached the service meanwhile. */
async function runAndSee(args: string[]) {
  const before = (await serviceRequests()).length;
  const r = await run(args);
  return { ...r, sent: (await serviceRequests()).slice(before) };
}

describe('assess links list / get', () => {
  it('piped: one TSV row per link with the schedule in ISO UTC', async () => {
    const r = await run(['links', 'list', '1001']);
    expect(r.code).toBe(0);
    const rows = r.stdout
      .trim()
      .split('\n')
      .map((l) => l.split('\t'));
    expect(rows.map((c) => c[0])).toEqual(['5001', '5002', '5003', '5004']);
    expect(rows[0]).toEqual([
      '5001',
      'Default API link',
      'active',
      'email',
      'disabled',
      'validityindays',
      '7',
      '',
      '',
      '1',
    ]);
    expect(rows[1]!.slice(0, 6)).toEqual(['5002', 'Campus drive (timebound)', 'active', 'email', 'image', 'timebound']);
    expect(rows[1]![7]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  });

  it('--json the service objects; --json fields; --ndjson; --csv with dotted headers', async () => {
    const j = await run(['links', 'list', '1001', '--json']);
    const links = JSON.parse(j.stdout);
    expect(links).toHaveLength(4);
    expect(links[2]).toMatchObject({
      testLinkId: 5003,
      invitationSchedule: { scheduleType: 'slotwise' },
      stakeholderEmails: 'lead@acme.example,hr@acme.example',
    });

    const picked = await run(['links', 'list', '1001', '--json', 'testLinkId,testLinkStatus']);
    expect(JSON.parse(picked.stdout)[3]).toEqual({ testLinkId: 5004, testLinkStatus: 'inactive' });

    const nd = await run(['links', 'list', '1001', '--ndjson']);
    expect(
      nd.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).testLinkId),
    ).toEqual([5001, 5002, 5003, 5004]);

    const csv = await run(['links', 'list', '1001', '--csv']);
    const lines = csv.stdout.split('\r\n');
    expect(lines[0]).toBe(
      'testLinkId,testLinkName,testLinkStatus,invitationType,proctoringSettings.proctoringMode,invitationSchedule.scheduleType,' +
        'invitationSchedule.scheduleDetails.invitationValidityInDays,invitationSchedule.scheduleDetails.startDateTime,' +
        'invitationSchedule.scheduleDetails.endDateTime,invitationSchedule.scheduleDetails.timeZoneId',
    );
    expect(lines[1]).toBe('5001,Default API link,active,email,disabled,validityindays,7,,,1');
  });

  it('service text on a terminal: --csv cells escaped as in a table, --json/--ndjson with \\uXXXX for C1 and bidi; piped stays exact', async () => {
    const evil = 'evil\u001b]0;PWNED\u0007\u001b[31mRED\u009b2J\u202eabc\u200f';
    await s.service('/v3/tests/1003/testlinks', {
      testId: 1003,
      testLinkName: evil,
      testLinkStatus: 'active',
      invitationType: 'open',
      proctoringSettings: { proctoringMode: 'disabled' },
      invitationSchedule: {
        scheduleType: 'validityindays',
        scheduleDetails: { invitationValidityInDays: 3, timeZoneId: 1 },
      },
    });
    const onTty = (args: string[]) => runAssess(args, { env: s.env, tty: true });
    const raw = /[\u001b\u0007\u009b\u202e\u200f]/;

    const csv = await onTty(['links', 'list', '1003', '--csv']);
    expect(csv.code, csv.stderr).toBe(0);
    expect(csv.stdout).not.toMatch(raw);
    expect(csv.stdout).toContain('evil\\x1b]0;PWNED\\x07\\x1b[31mRED\\x9b2J\\u202eabc\\u200f');

    for (const format of ['--json', '--ndjson']) {
      const j = await onTty(['links', 'list', '1003', format]);
      expect(j.code, j.stderr).toBe(0);
      expect(j.stdout).not.toMatch(raw);
      expect(j.stdout).toContain('\\u009b2J\\u202eabc\\u200f');
      // still JSON, and the same value
      const rows =
        format === '--json'
          ? JSON.parse(j.stdout)
          : j.stdout
              .trim()
              .split('\n')
              .map((l) => JSON.parse(l));
      expect(rows.map((l: { testLinkName: string }) => l.testLinkName)).toContain(evil);
    }
    // piped: exact
    expect((await run(['links', 'list', '1003', '--csv'])).stdout).toContain(evil);
    const link = JSON.parse((await run(['links', 'list', '1003', '--json'])).stdout).at(-1);
    expect(link.testLinkName).toBe(evil);

    const one = await onTty(['links', 'get', '1003', String(link.testLinkId), '--json']);
    expect(one.stdout).not.toMatch(raw);
    expect(JSON.parse(one.stdout).testLinkName).toBe(evil);
  });

  it('a test without links: --json prints [] and exits 0', async () => {
    const r = await run(['links', 'list', '1004', '--json']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('[]\n');
  });

  it("listing the links of another account's test is refused: 403 → exit 4 (the id is unknown to this key) with the service's message", async () => {
    const r = await run(['links', 'list', '2001']);
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: GET \/v3\/tests\/2001\/testlinks → HTTP 403: /);
  });

  it('get: key/value lines piped, the link object with --json', async () => {
    const r = await run(['links', 'get', '1001', '5003']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('testLinkId\t5003\n');
    expect(r.stdout).toContain('invitationSchedule.scheduleType\tslotwise\n');
    const j = await run(['links', 'get', '1001', '5003', '--json', 'testLinkId,proctoringSettings']);
    expect(JSON.parse(j.stdout)).toEqual({ testLinkId: 5003, proctoringSettings: { proctoringMode: 'video' } });
  });

  it('get of a link that is not on the test exits 4 (not found)', async () => {
    const r = await run(['links', 'get', '1001', '9999']);
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: GET \/v3\/tests\/1001\/testlinks\/9999 → HTTP 404/);
  });
});

describe('assess links create', () => {
  it('--valid-days → validityindays with invitationValidityInDays and timeZoneId; defaults filled', async () => {
    const r = await runAndSee([
      'links',
      'create',
      '1001',
      '--name',
      'Campus 2026',
      '--valid-days',
      '7',
      '--tz',
      '3',
      '--json',
    ]);
    expect(r.code).toBe(0);
    expect(r.sent).toHaveLength(1);
    expect(r.sent[0]).toMatchObject({ method: 'POST', path: '/v3/tests/1001/testlinks' });
    expect(r.sent[0]!.body).toEqual({
      testId: 1001,
      testLinkName: 'Campus 2026',
      testLinkStatus: 'active',
      invitationType: 'open',
      proctoringSettings: { proctoringMode: 'disabled' },
      invitationSchedule: {
        scheduleType: 'validityindays',
        scheduleDetails: { invitationValidityInDays: 7, timeZoneId: 3 },
      },
    });
    const link = JSON.parse(r.stdout);
    expect(link).toMatchObject({
      testId: 1001,
      testLinkName: 'Campus 2026',
      invitationSchedule: { scheduleType: 'validityindays' },
    });
    expect(r.stderr).toMatch(new RegExp(`Created test link ${link.testLinkId}`));
    const listed = await run(['links', 'list', '1001', '--json', 'testLinkId']);
    expect(JSON.parse(listed.stdout)).toContainEqual({ testLinkId: link.testLinkId });
  });

  it('--start/--end --slotwise → slotwise in UTC seconds, with every friendly flag', async () => {
    const r = await runAndSee([
      'links',
      'create',
      '1001',
      '--name',
      'Evening',
      '--status',
      'inactive',
      '--type',
      'email',
      '--proctoring',
      'video',
      '--stakeholders',
      'ann@example.com, bo@example.com',
      '--start',
      '2030-03-01T18:00:00+01:00',
      '--end',
      '2030-03-05T21:00:00+01:00',
      '--slotwise',
      '--tz',
      '7',
      '--ndjson',
    ]);
    expect(r.code).toBe(0);
    expect(r.sent[0]!.body).toEqual({
      testId: 1001,
      testLinkName: 'Evening',
      testLinkStatus: 'inactive',
      invitationType: 'email',
      proctoringSettings: { proctoringMode: 'video' },
      stakeholderEmails: 'ann@example.com,bo@example.com',
      invitationSchedule: {
        scheduleType: 'slotwise',
        scheduleDetails: { startDateTime: '2030-03-01T17:00:00Z', endDateTime: '2030-03-05T20:00:00Z', timeZoneId: 7 },
      },
    });
    expect(JSON.parse(r.stdout).invitationSchedule.scheduleType).toBe('slotwise');
  });

  it('--start/--end without --slotwise → timebound', async () => {
    const r = await runAndSee([
      'links',
      'create',
      '1002',
      '--name',
      'Window',
      '--start',
      '2030-01-01',
      '--end',
      '2030-01-31',
      '--tz',
      '1',
    ]);
    expect(r.stderr).not.toMatch(/error/);
    expect(r.code).toBe(0);
    expect(r.sent[0]!.body).toMatchObject({
      invitationSchedule: {
        scheduleType: 'timebound',
        scheduleDetails: { startDateTime: '2030-01-01T00:00:00Z', endDateTime: '2030-01-31T00:00:00Z' },
      },
    });
    expect(r.stdout).toContain('invitationSchedule.scheduleType\ttimebound\n');
  });

  it.each([
    [['1001', '--name', 'x', '--valid-days', '7', '--tz', 'U;TC'], /^error: --tz: must be a time zone id or name/],
    [
      ['1001', '--name', 'x', '--valid-days', '7', '--tz', '-1'],
      /^error: --tz: must be (a time zone id or name|at least 1)/,
    ],
    [['1001', '--name', 'x', '--valid-days', '7'], /^error: --tz: is required with a schedule/],
    [
      ['1001', '--name', 'x', '--start', '2030-02-01', '--end', '2030-01-01', '--tz', '1'],
      /^error: --end: must be after --start/,
    ],
    [
      ['1001', '--name', 'x', '--valid-days', '7', '--tz', '1', '--stakeholders', 'ann@example.com,bo@'],
      /^error: --stakeholders: .*'bo@'/,
    ],
    [
      ['1001', '--name', 'x', '--valid-days', '7', '--tz', '1', '--type', 'closed'],
      /^error: --type: must be one of email, open/,
    ],
    [['1001', '--name', 'x', '--valid-days', 'soon', '--tz', '1'], /^error: --valid-days: must be a whole number/],
    [
      ['1001', '--name', 'x', '--valid-days', '7', '--start', '1d', '--end', '2d', '--tz', '1'],
      /^error: --valid-days: cannot be combined/,
    ],
    [['1001', '--valid-days', '7', '--tz', '1'], /^error: --name: is required/],
    [['1001', '--name', 'x', '--tz', '1'], /^error: --valid-days: a schedule is required/],
    [
      ['1001', '--name', 'x', '--start', 'next week', '--end', '2030-01-01', '--tz', '1'],
      /^error: --start: 'next week' is not a time/,
    ],
    [['10x1', '--name', 'x', '--valid-days', '7', '--tz', '1'], /^error: <testId>: must be a positive integer id/],
  ])('bad input %j exits 2 naming the flag, and nothing reaches the service', async (args, message) => {
    const r = await runAndSee(['links', 'create', ...args]);
    expect(r.stderr).toMatch(message);
    expect(r.code).toBe(2);
    expect(r.sent).toEqual([]);
  });
});

describe('assess links create: an open link says so', () => {
  it.each([
    [[], ' (the default)'],
    [['--type', 'open'], ''],
  ])('%j: anyone with the URL can take the test, and how to change that', async (extra, dflt) => {
    const r = await run(['links', 'create', '1001', '--name', 'Open one', '--valid-days', '7', '--tz', '1', ...extra]);
    expect(r.code, r.stderr).toBe(0);
    const id = /Created test link (\d+)/.exec(r.stderr)![1];
    expect(r.stderr).toContain(
      `The link is open${dflt}: anyone with its URL can take the test. To admit only invited candidates: assess ` +
        `links update 1001 ${id} --type email`,
    );
  });

  it('--type email: nothing said about openness', async () => {
    const r = await run([
      'links',
      'create',
      '1001',
      '--name',
      'Invited only',
      '--valid-days',
      '7',
      '--tz',
      '1',
      '--type',
      'email',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/open/);
  });
});

describe('assess links update', () => {
  it('reads the link, changes only the given flag, sends the whole object, and says what changed', async () => {
    const r = await runAndSee(['links', 'update', '1001', '5002', '--status', 'inactive', '--json']);
    expect(r.code).toBe(0);
    expect(r.sent.map((q) => `${q.method} ${q.path}`)).toEqual([
      'GET /v3/tests/1001/testlinks/5002',
      'POST /v3/tests/1001/testlinks/5002',
    ]);
    const body = r.sent[1]!.body as Record<string, unknown>;
    expect(body).toMatchObject({
      testLinkName: 'Campus drive (timebound)',
      testLinkStatus: 'inactive',
      invitationType: 'email',
      proctoringSettings: { proctoringMode: 'image' },
      invitationSchedule: { scheduleType: 'timebound', scheduleDetails: { timeZoneId: 1 } },
    });
    expect(r.stderr).toContain('testLinkStatus: "active" → "inactive"');
    expect(r.stderr).not.toContain('testLinkName');
    expect(JSON.parse(r.stdout)).toMatchObject({ testLinkId: 5002, testLinkStatus: 'inactive' });
  });

  it('--valid-days on a window link switches the schedule and keeps the time zone', async () => {
    const r = await runAndSee(['links', 'update', '1001', '5003', '--valid-days', '14']);
    expect(r.code).toBe(0);
    expect((r.sent[1]!.body as Record<string, unknown>).invitationSchedule).toEqual({
      scheduleType: 'validityindays',
      scheduleDetails: { invitationValidityInDays: 14, timeZoneId: 1 },
    });
    expect(r.stderr).toContain('invitationSchedule.scheduleType: "slotwise" → "validityindays"');
    const got = JSON.parse((await run(['links', 'get', '1001', '5003', '--json'])).stdout);
    expect(got.invitationSchedule.scheduleDetails.invitationValidityInDays).toBe(14);
  });

  it('values equal to the stored ones: nothing is sent after the read', async () => {
    const r = await runAndSee(['links', 'update', '1001', '5001', '--name', 'Default API link']);
    expect(r.code).toBe(0);
    expect(r.sent.map((q) => q.method)).toEqual(['GET']);
    expect(r.stderr).toMatch(/No changes/);
  });

  it('--no-stakeholders clears the list (null, as the spec writes "none"), under v3 and v2', async () => {
    const stakeholders = async () =>
      JSON.parse((await run(['links', 'get', '1001', '5003', '--json', 'stakeholderEmails'])).stdout).stakeholderEmails;
    expect(await stakeholders()).toBeTruthy();
    const r = await runAndSee(['links', 'update', '1001', '5003', '--no-stakeholders']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.sent[1]!.body).toHaveProperty('stakeholderEmails', null);
    expect(r.stderr).toMatch(/stakeholderEmails: ".*" → \(none\)/);
    expect(await stakeholders()).toBeNull();
    expect((await run(['links', 'update', '1001', '5003', '--stakeholders', 'hr@example.com'])).code).toBe(0);
    const v2 = await run(['--api', 'v2', 'links', 'update', '1001', '5003', '--no-stakeholders']);
    expect(v2.code, v2.stderr).toBe(0);
    expect(v2.stderr).toContain('emailToStakeholder: "hr@example.com" → (none)');
    expect(await stakeholders()).toBeNull();
  });

  it("another account's link: the read is refused (exit 4) and nothing is written", async () => {
    const r = await runAndSee(['links', 'update', '2001', '5007', '--status', 'inactive']);
    expect(r.code).toBe(4);
    expect(r.sent.every((q) => q.method === 'GET')).toBe(true);
  });

  it.each([
    [['1001', '5002'], /^error: links update: nothing to change/],
    [['1001', 'abc', '--status', 'inactive'], /^error: <linkId>: must be a positive integer id/],
    [['1001', '5002', '--tz', '1.5'], /^error: --tz: must be a time zone id or name/],
    [['1001', '5002', '--start', '2030-02-01', '--end', '2030-01-01'], /^error: --end: must be after --start/],
    [['1001', '5002', '--stakeholders', 'nobody'], /^error: --stakeholders: .*'nobody'/],
    [
      ['1001', '5002', '--stakeholders', ''],
      /^error: --stakeholders: must be comma-separated e-mail addresses.*; --no-stakeholders clears the list/,
    ],
    [
      ['1001', '5002', '--stakeholders', 'a@example.com', '--no-stakeholders'],
      /^error: --stakeholders and --no-stakeholders cannot be used together/,
    ],
    [['1001', '5002', '--proctoring', 'audio'], /^error: --proctoring: must be one of disabled, image, video/],
  ])('bad input %j exits 2 naming the flag, before any request', async (args, message) => {
    const r = await runAndSee(['links', 'update', ...args]);
    expect(r.stderr).toMatch(message);
    expect(r.code).toBe(2);
    expect(r.sent).toEqual([]);
  });
});

describe('service 400 on create/update (documented {errors:[…]})', () => {
  it("exits 1 and shows the service's message", async () => {
    // The CLI checks invitationType itself, so the sandbox never sees a bad one; a stand-in
    // service answers the documented 400 to show how the CLI reports it.
    const srv = await startServer((_req, res) =>
      json(res, 400, { errors: ["invitationType: must be 'email' or 'open'"] }),
    );
    try {
      const r = await runAssess(['links', 'create', '1001', '--name', 'x', '--valid-days', '7', '--tz', '1'], {
        env: { ASSESS_BASE_URL: srv.url, ASSESS_API_KEY: 'k' },
      });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(
        /^error: POST \/v3\/tests\/1001\/testlinks → HTTP 400: invitationType: must be 'email' or 'open'/,
      );
      expect(srv.requests).toHaveLength(1);
    } finally {
      await srv.close();
    }
  });
});
