// Account isolation: account B's key on account A's resources, for all 16 endpoints — the
// documented refusal, and nothing changes. Unknown ids get the same answer as foreign ones.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FULL_SETTINGS, harness, REATTEMPT_BODY, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => (h = await harness()));
afterAll(() => h.close());

const LINK = {
  testLinkName: 'L',
  invitationType: 'email',
  invitationSchedule: {
    scheduleType: 'validityindays',
    scheduleDetails: { invitationValidityInDays: 3, timeZoneId: 1 },
  },
};
const forbiddenTest = (id: number) => ({ statusCode: 403, message: expect.stringContaining(String(id)) });

const CASES: [string, string, string, unknown, number, (id: string) => unknown][] = [
  ['2 get test', 'GET', '/v3/tests/{T}', undefined, 403, (t) => forbiddenTest(+t)],
  ['3 invite', 'POST', '/v3/tests/{T}/invite', { email: 'x@y.co', name: 'X' }, 403, (t) => forbiddenTest(+t)],
  ['4 report', 'GET', '/v3/reports/{I}', undefined, 401, (i) => ({ errors: [expect.stringContaining(i)] })],
  ['5 report pdf', 'GET', '/v3/reports/{I}/pdf', undefined, 401, (i) => ({ errors: [expect.stringContaining(i)] })],
  ['6 list links', 'GET', '/v3/tests/{T}/testlinks', undefined, 403, (t) => forbiddenTest(+t)],
  ['7 get link', 'GET', '/v3/tests/{T}/testlinks/5001', undefined, 403, (t) => forbiddenTest(+t)],
  [
    '8 cancel',
    'POST',
    '/v3/invitations/{P}/cancel',
    undefined,
    401,
    (i) => ({ statusCode: 401, message: expect.stringContaining(i) }),
  ],
  [
    '9 reattempt',
    'POST',
    '/v3/invitations/{I}/reattempt',
    REATTEMPT_BODY,
    401,
    () => ({ statusCode: 401, message: expect.any(String) }),
  ],
  [
    '10 invite by link',
    'POST',
    '/v3/tests/{T}/testlinks/5002/invite',
    { email: 'x@y.co', name: 'X' },
    403,
    (t) => forbiddenTest(+t),
  ],
  ['11 create link', 'POST', '/v3/tests/{T}/testlinks', LINK, 403, (t) => forbiddenTest(+t)],
  ['12 update link', 'POST', '/v3/tests/{T}/testlinks/5002', { testLinkName: 'hijack' }, 403, (t) => forbiddenTest(+t)],
  ['13 get settings', 'GET', '/v3/tests/{T}/settings', undefined, 403, (t) => forbiddenTest(+t)],
  ['14 update settings', 'POST', '/v3/tests/{T}/settings', FULL_SETTINGS, 403, (t) => forbiddenTest(+t)],
  [
    '16 callbacks',
    'POST',
    '/v3/callbacks/process',
    { testinvitationIds: ['{I}'] },
    401,
    (i) => ({ result: null, errors: [expect.stringContaining(i), i] }),
  ],
];

describe.each([
  ['foreign ids (account A)', { T: '1001', I: '900001', P: '900004' }],
  ['unknown ids', { T: '7777', I: '123456', P: '123457' }],
])('account B on %s', (_label, ids) => {
  const fill = (s: string) => s.replace('{T}', ids.T).replace('{I}', ids.I).replace('{P}', ids.P);
  it.each(CASES)('%s', async (_name, method, path, body, status, expected) => {
    const before = await h.stateWithoutLog();
    const payload =
      body === undefined ? undefined : JSON.parse(fill(JSON.stringify(body)).replace(`"${ids.I}"`, ids.I));
    const r = await h.api(method, fill(path), payload, h.keyB);
    expect(r.status).toBe(status);
    expect(r.body).toEqual(expected(path.includes('{P}') ? ids.P : path.includes('{T}') ? ids.T : ids.I));
    expect(await h.stateWithoutLog()).toEqual(before);
  });
});

describe('account B sees only its own data', () => {
  it('1 list tests', async () => {
    const r = await h.api('GET', '/v3/tests', undefined, h.keyB);
    expect(r.status).toBe(200);
    expect(r.body.tests.map((t: any) => t.testId)).toEqual([2001, 2002, 2003]);
  });
  it('15 list attempts', async () => {
    const body = { StartDateTime: '2000-01-01', EndDateTime: '2100-01-01' };
    const b = await h.api('POST', '/v3/candidates/testattempts?state=completed', body, h.keyB);
    expect(b.status).toBe(200);
    expect(b.body.result.testAttempts.map((a: any) => a.testId).every((t: number) => t >= 2000)).toBe(true);
    expect(b.body.result.testAttempts.length).toBeGreaterThan(0);
    const a = await h.api('POST', '/v3/candidates/testattempts?state=completed', body, h.keyA);
    expect(a.body.result.testAttempts.every((x: any) => x.testId < 2000)).toBe(true);
  });
  it('a link of another test of the same account is not found (404)', async () => {
    const r = await h.api('GET', '/v3/tests/1002/testlinks/5001');
    expect(r.status).toBe(404);
  });
});
