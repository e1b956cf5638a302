// Account isolation, end to end: account B's key on account A's tests, links, invitations,
// reports, settings and callbacks, for every v3 endpoint — through the CLI (the documented exit
// code and the service's message) and as raw HTTP (the status and body shape of the spec's error
// table) — and nothing in the sandbox state changes. An unknown id gets the same answer as a
// foreign one, so a key cannot probe another account.
// v2 (/v2/org/…) is walked the same way by test/e2e/v2.test.ts ("account isolation through the
// CLI", all ten endpoints with state snapshots) and test/sandbox/v2-isolation.test.ts (raw HTTP).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess as runAssess } from '../helpers/in-process.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let s: TestSandbox;
beforeAll(async () => {
  s = await startTestSandbox();
});
afterAll(async () => s?.close());

const asB = () => ({ ...s.env, ASSESS_API_KEY: s.otherKey });
/** The whole state document, without the request log (which every call grows). */
async function state(): Promise<unknown> {
  const { requests: _log, ...rest } = await s.control<Record<string, unknown>>('GET', '/state');
  return rest;
}
async function raw(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(s.sb.baseUrl + path, {
    method,
    headers: { 'X-API-KEY': s.otherKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

// The spec's error table (and docs/assumptions.md § Sandbox "Foreign or unknown ids").
const FORBIDDEN_TEST = (id: string) => ({ statusCode: 403, message: expect.stringContaining(id) });
const ERRORS = (id: string) => ({ errors: [expect.stringContaining(id)] });

const SETTINGS = {
  testSettings: { testName: 'Hijacked', testAliasName: 'H', typeOfTest: 1, practiceTest: 0 },
  questionSettings: { showQuestionScore: 0 },
  windowViolationSettings: {
    copyPaste: 0,
    displayViolationSettings: {
      displayViolationPopUp: 0,
      terminateTestOnWindowViolation: 0,
      terminateTestAfterViolationCount: 0,
    },
  },
};
const LINK = {
  testLinkName: 'Hijack',
  invitationType: 'open',
  invitationSchedule: {
    scheduleType: 'validityindays',
    scheduleDetails: { invitationValidityInDays: 3, timeZoneId: 1 },
  },
};
const SCHEDULE = { StartDateTime: '2030-01-01T00:00:00Z', EndDateTime: '2030-01-08T00:00:00Z', TimeZoneId: 1 };

interface Case {
  op: string;
  /** The CLI command for this endpoint (null: the CLI reaches it only after a refused read, checked by the read's own
   * case). */
  cli: string[] | null;
  code: number;
  http: [method: string, path: string, body?: unknown];
  status: number;
  shape: unknown;
}

const CASES: Case[] = [
  {
    op: '2 get test',
    cli: ['tests', 'get', '1001'],
    code: 4,
    http: ['GET', '/v3/tests/1001'],
    status: 403,
    shape: FORBIDDEN_TEST('1001'),
  },
  {
    op: '3 invite',
    cli: ['invite', '1001', '--email', 'intruder@example.com', '--name', 'Intruder'],
    code: 4,
    http: ['POST', '/v3/tests/1001/invite', { email: 'intruder@example.com', name: 'Intruder' }],
    status: 403,
    shape: FORBIDDEN_TEST('1001'),
  },
  {
    op: '4 report',
    cli: ['report', '900001'],
    code: 4,
    http: ['GET', '/v3/reports/900001?reportType=3'],
    status: 401,
    shape: ERRORS('900001'),
  },
  {
    op: '5 report PDF',
    cli: ['report', '900001', '--pdf', '-o', '-'],
    code: 4,
    http: ['GET', '/v3/reports/900001/pdf'],
    status: 401,
    shape: ERRORS('900001'),
  },
  {
    op: '6 list links',
    cli: ['links', 'list', '1001'],
    code: 4,
    http: ['GET', '/v3/tests/1001/testlinks'],
    status: 403,
    shape: FORBIDDEN_TEST('1001'),
  },
  {
    op: '7 get link',
    cli: ['links', 'get', '1001', '5001'],
    code: 4,
    http: ['GET', '/v3/tests/1001/testlinks/5001'],
    status: 403,
    shape: FORBIDDEN_TEST('1001'),
  },
  {
    op: '8 cancel',
    cli: ['attempts', 'cancel', '900004', '--yes'],
    code: 4,
    http: ['POST', '/v3/invitations/900004/cancel', {}],
    status: 401,
    shape: { statusCode: 401, message: expect.stringContaining('900004') },
  },
  {
    op: '9 reattempt',
    cli: ['reattempt', '900001', '--start', 'now', '--end', '7d', '--tz', '1'],
    code: 4,
    http: ['POST', '/v3/invitations/900001/reattempt', SCHEDULE],
    status: 401,
    shape: { statusCode: 401, message: expect.stringContaining('900001') },
  },
  {
    op: '10 invite by link',
    cli: ['invite', '1001', '--link', '5002', '--email', 'intruder@example.com', '--name', 'Intruder'],
    code: 4,
    http: ['POST', '/v3/tests/1001/testlinks/5002/invite', { email: 'intruder@example.com', name: 'Intruder' }],
    status: 403,
    shape: FORBIDDEN_TEST('1001'),
  },
  {
    op: '11 create link',
    cli: ['links', 'create', '1001', '--name', 'Hijack', '--valid-days', '3', '--tz', '1'],
    code: 4,
    http: ['POST', '/v3/tests/1001/testlinks', LINK],
    status: 403,
    shape: FORBIDDEN_TEST('1001'),
  },
  {
    op: '12 update link',
    cli: ['links', 'update', '1001', '5002', '--status', 'inactive'],
    code: 4,
    http: ['POST', '/v3/tests/1001/testlinks/5002', { ...LINK, testLinkStatus: 'inactive' }],
    status: 403,
    shape: FORBIDDEN_TEST('1001'),
  },
  {
    op: '13 get settings',
    cli: ['settings', 'get', '1001'],
    code: 4,
    http: ['GET', '/v3/tests/1001/settings'],
    status: 403,
    shape: FORBIDDEN_TEST('1001'),
  },
  {
    op: '14 update settings',
    cli: ['settings', 'set', '1001', '--set', 'testSettings.testName=Hijacked', '--yes'],
    code: 4,
    http: ['POST', '/v3/tests/1001/settings', SETTINGS],
    status: 403,
    shape: FORBIDDEN_TEST('1001'),
  },
  // A 401 naming the ids marks them failed (docs/assumptions.md § callbacks process): exit 5.
  {
    op: '16 process callbacks',
    cli: ['callbacks', 'process', '900001'],
    code: 5,
    http: ['POST', '/v3/callbacks/process', { testinvitationIds: [900001] }],
    status: 401,
    shape: { result: null, errors: [expect.stringContaining('900001'), '900001'] },
  },
];

describe("account B's key on account A's resources: refused, nothing changed", () => {
  it.each(CASES.map((c) => [c.op, c] as const))('%s', async (_op, c) => {
    const before = await state();
    if (c.cli) {
      const r = await runAssess(c.cli, { env: asB() });
      expect(r.code, r.stderr).toBe(c.code);
      expect(r.stdout.includes('%PDF')).toBe(false);
      expect(r.stderr).toMatch(
        c.code === 5 ? /0 of 1 invitation queued.*1 failed: 900001/ : new RegExp(`HTTP ${c.status}: `),
      );
      expect(r.stderr).toMatch(/1001|900001|900004/);
    }
    const [method, path, body] = c.http;
    const res = await raw(method, path, body);
    expect(res.status).toBe(c.status);
    expect(res.body).toEqual(c.shape);
    expect(await state()).toEqual(before);
  });

  it('unknown ids get the same answers as foreign ones (no probing)', async () => {
    const before = await state();
    const test = await runAssess(['tests', 'get', '7777'], { env: asB() });
    expect(test.code).toBe(4);
    expect(test.stderr).toMatch(/HTTP 403: .*7777/);
    expect(await raw('GET', '/v3/tests/7777')).toEqual({ status: 403, body: FORBIDDEN_TEST('7777') });
    const report = await runAssess(['report', '123456'], { env: asB() });
    expect(report.code).toBe(4);
    expect(await raw('GET', '/v3/reports/123456')).toEqual({ status: 401, body: ERRORS('123456') });
    expect(await state()).toEqual(before);
  });
});

describe('account B lists only its own data', () => {
  it('1 list tests: only 2001-2003', async () => {
    const r = await runAssess(['tests', 'list', '--all', '--json', 'testId'], { env: asB() });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).map((t: { testId: number }) => t.testId)).toEqual([2001, 2002, 2003]);
  });

  it("15 list attempts: B's completed attempts, none of A's", async () => {
    const r = await runAssess(
      ['attempts', 'list', '--state', 'completed', '--from', '3650d', '--to', 'now', '--json'],
      { env: asB() },
    );
    expect(r.code, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as Array<{ testInvitationId: number; testId: number }>;
    expect(rows.map((a) => a.testInvitationId)).toContain(900008);
    expect(rows.every((a) => a.testId >= 2001 && a.testId <= 2003)).toBe(true);
    const res = await raw('POST', '/v3/candidates/testattempts?state=completed', {
      StartDateTime: '2000-01-01',
      EndDateTime: '2100-01-01',
    });
    expect(res.body.result.testAttempts.some((a: { testInvitationId: number }) => a.testInvitationId === 900001)).toBe(
      false,
    );
  });
});
