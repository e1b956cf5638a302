// Account isolation on all ten v2 endpoints: account B's key on account A's test, link or
// invitation is refused with 403 {statuscode:"403.1"} (unknown ids get the same answer, so a key
// cannot probe another account) and nothing changes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from './helpers.js';
import { v2 } from './v2-helpers.js';

let h: Harness;
let call: ReturnType<typeof v2>;
beforeAll(async () => {
  h = await harness();
  call = v2(h);
});
afterAll(() => h.close());

const REGISTER = { emailId: 'intruder@example.com', fullName: 'Intruder' };
const CASES: [string, string, string, unknown][] = [
  ['get test', 'GET', '/v2/org/tests/{T}', undefined],
  ['register', 'POST', '/v2/org/tests/{T}/register', REGISTER],
  ['register via link', 'POST', '/v2/org/tests/{T}/testlinks/5002/register', REGISTER],
  ['report', 'GET', '/v2/org/report/{I}', undefined],
  ['section report', 'GET', '/v2/org/report/{I}/sections', undefined],
  ['report pdf', 'GET', '/v2/org/report/{I}/pdf', undefined],
  ['create link', 'POST', '/v2/org/tests/{T}/testlinks', { testLinkName: 'hijack' }],
  ['update link', 'POST', '/v2/org/tests/{T}/testlinks/5002', { testLinkName: 'hijack', testLinkStatus: 3 }],
  ['list links', 'GET', '/v2/org/tests/{T}/testlinks', undefined],
  ['get link', 'GET', '/v2/org/tests/{T}/testlinks/5002', undefined],
];

describe.each([
  ['account A ids', { T: '1001', I: '900001' }],
  ['unknown ids', { T: '7777', I: '123456' }],
])('account B on %s', (_label, ids) => {
  it.each(CASES)('%s → 403.1, nothing changed', async (_name, method, path, body) => {
    const before = await h.stateWithoutLog();
    const url = path.replace('{T}', ids.T).replace('{I}', ids.I);
    const r = await call(method, url, body, h.keyB);
    expect(r.status).toBe(403);
    expect(r.body).toEqual({
      statuscode: '403.1',
      description: expect.stringContaining(path.includes('{I}') ? ids.I : ids.T),
    });
    expect(await h.stateWithoutLog()).toEqual(before);
  });
});

describe('account B sees only its own data', () => {
  it('list tests', async () => {
    const r = await call('GET', '/v2/org/tests', undefined, h.keyB);
    expect(r.body.result).toEqual({ tests: expect.any(Array), testsCount: 3 });
    expect(r.body.result.tests.map((t: { testId: number }) => t.testId)).toEqual([2001, 2002, 2003]);
  });
  it('its own link of another of its tests is not found (404.1), not another account', async () => {
    const r = await call('GET', '/v2/org/tests/2002/testlinks/5007', undefined, h.keyB);
    expect(r).toMatchObject({ status: 404, body: { statuscode: '404.1' } });
  });
});
