// Every row of the spec's error table, the key check per endpoint, and framework-level errors.
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

describe('error table row 1: 400 {errors:[…]}', () => {
  it('invite: empty e-mail', async () => {
    const r = await h.api('POST', '/v3/tests/1001/invite', { email: '', name: 'N' });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ errors: ['email is required'] });
  });
  it('invite: badly formatted e-mail', async () => {
    const r = await h.api('POST', '/v3/tests/1001/invite', { email: 'nope', name: 'N' });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual([expect.stringMatching(/^email: .*e-mail/)]);
  });
  it('invite by link: missing name', async () => {
    const r = await h.api('POST', '/v3/tests/1001/testlinks/5002/invite', { email: 'a@b.co' });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ errors: ['name is required'] });
  });
  it('create link: invalid invitationType', async () => {
    const r = await h.api('POST', '/v3/tests/1001/testlinks', { ...LINK, invitationType: 'public' });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual(["invitationType: must be 'email' or 'open'"]);
  });
  it('update link: invalid schedule', async () => {
    const r = await h.api('POST', '/v3/tests/1001/testlinks/5002', {
      invitationSchedule: { scheduleType: 'timebound', scheduleDetails: { timeZoneId: 1 } },
    });
    expect(r.status).toBe(400);
    expect(r.body.errors.join(' ')).toMatch(/startDateTime is required/);
  });
  it('update settings: a missing required field', async () => {
    const body = structuredClone(FULL_SETTINGS) as any;
    delete body.testSettings.testName;
    const r = await h.api('POST', '/v3/tests/1001/settings', body);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ errors: ['testSettings.testName is required'] });
  });
  it('report: invalid reportType', async () => {
    const r = await h.api('GET', '/v3/reports/900001?reportType=7');
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ errors: ['reportType: must be 1, 2 or 3'] });
  });
  it.each([
    ['POST', '/v3/tests/1001/invite'],
    ['POST', '/v3/tests/1001/testlinks/5002/invite'],
    ['POST', '/v3/tests/1001/testlinks'],
    ['POST', '/v3/tests/1001/testlinks/5002'],
    ['POST', '/v3/tests/1001/settings'],
    ['GET', '/v3/reports/900001'],
  ])('invalid API key on %s %s → 400 {errors}', async (method, path) => {
    const r = await h.api(method, path, method === 'POST' ? {} : undefined, 'sk_wrong');
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ errors: [expect.stringMatching(/Invalid API key/)] });
  });
});

describe('error table row 2: reattempt 400 {statusCode:400, message}', () => {
  it('in progress', async () => {
    const r = await h.api('POST', '/v3/invitations/900005/reattempt', REATTEMPT_BODY);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ statusCode: 400, message: expect.stringMatching(/in progress/) });
  });
});

describe('error table row 3: list attempts 401 {result:null, errors}', () => {
  it.each([
    [{}, /StartDateTime is required/],
    [{ StartDateTime: '2030-01-01', EndDateTime: '01/02/2030' }, /EndDateTime/],
    [{ StartDateTime: '2030-01-01T99:00:00', EndDateTime: '2030-01-02' }, /StartDateTime/],
    [{ StartDateTime: '2030-01-05', EndDateTime: '2030-01-01' }, /must not be before/],
  ])('%j', async (body, message) => {
    const r = await h.api('POST', '/v3/candidates/testattempts?state=completed', body);
    expect(r.status).toBe(401);
    expect(r.body.result).toBeNull();
    expect(r.body.errors.join(' ')).toMatch(message);
  });
});

describe('error table row 4: process callbacks 401 {result:null, errors:[message, id]}', () => {
  it('an unknown id is named', async () => {
    const r = await h.api('POST', '/v3/callbacks/process', { testinvitationIds: [900001, 123456] });
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ result: null, errors: [expect.stringContaining('123456'), '123456'] });
  });
});

describe('error table row 5: list links 403 {statusCode:403, message}', () => {
  it("another account's test", async () => {
    const r = await h.api('GET', '/v3/tests/2001/testlinks');
    expect(r.status).toBe(403);
    expect(r.body).toEqual({ statusCode: 403, message: expect.stringContaining('2001') });
  });
});

describe('missing or wrong key on the other endpoints', () => {
  it.each([
    ['GET', '/v3/tests', 'resultErrors'],
    ['GET', '/v3/tests/1001', 'statusMessage'],
    ['GET', '/v3/tests/1001/testlinks', 'statusMessage'],
    ['GET', '/v3/tests/1001/testlinks/5001', 'statusMessage'],
    ['GET', '/v3/tests/1001/settings', 'statusMessage'],
    ['POST', '/v3/invitations/900004/cancel', 'statusMessage'],
    ['POST', '/v3/invitations/900004/reattempt', 'statusMessage'],
    ['POST', '/v3/candidates/testattempts?state=completed', 'resultErrors'],
    ['POST', '/v3/callbacks/process', 'resultErrors'],
  ])('%s %s → 401 (%s)', async (method, path, style) => {
    for (const key of [null, 'sk_wrong']) {
      const r = await h.api(method, path, method === 'POST' ? {} : undefined, key);
      expect(r.status).toBe(401);
      const text = JSON.stringify(r.body);
      expect(text).toMatch(/API key/);
      if (style === 'resultErrors') expect(r.body.result).toBeNull();
      if (style === 'statusMessage') expect(r.body.statusCode).toBe(401);
      if (style === 'errors') expect(Array.isArray(r.body.errors)).toBe(true);
    }
  });
  it('the header name is case-insensitive', async () => {
    const r = await fetch(`${h.sb.baseUrl}/v3/tests`, { headers: { 'x-Api-kEy': h.keyA } });
    expect(r.status).toBe(200);
  });
});

describe('framework-level errors', () => {
  it('malformed JSON → 400 {errors}', async () => {
    const r = await h.api('POST', '/v3/tests/1001/invite', '{"email": ');
    expect(r.status).toBe(400);
    expect(r.body.errors[0]).toMatch(/Malformed JSON/);
  });
  it('a body over 1 MB → 413', async () => {
    const r = await h.api('POST', '/v3/tests/1001/invite', { email: 'a@b.co', name: 'x'.repeat(1_100_000) });
    expect(r.status).toBe(413);
    expect(r.body.errors[0]).toMatch(/1 MB/);
  });
  it('unknown endpoint → 404 {errors}', async () => {
    const r = await h.api('GET', '/v3/nothing');
    expect(r.status).toBe(404);
    expect(r.body.errors[0]).toMatch(/No such endpoint/);
  });
  it('a non-numeric id → 400 in the route shape', async () => {
    const r = await h.api('GET', '/v3/tests/abc/testlinks');
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ statusCode: 400, message: expect.stringContaining('testId') });
  });
  it('pageSize over 100 → 400', async () => {
    const r = await h.api('GET', '/v3/tests?pageSize=101');
    expect(r.status).toBe(400);
    expect(r.body.result).toBeNull();
  });
  it('callbacks: more than 100 ids → 400 with a clear message', async () => {
    const r = await h.api('POST', '/v3/callbacks/process', {
      testinvitationIds: Array.from({ length: 101 }, (_, i) => 900001 + i),
    });
    expect(r.status).toBe(400);
    expect(r.body.errors[0]).toMatch(/At most 100 .* got 101/);
  });
  it('list attempts: an unknown state → 400', async () => {
    const r = await h.api('POST', '/v3/candidates/testattempts?state=lost', {
      StartDateTime: '2030-01-01',
      EndDateTime: '2030-01-02',
    });
    expect(r.status).toBe(400);
    expect(r.body.errors[0]).toMatch(/state/);
  });
});

describe('hostile bodies', () => {
  it('a __proto__ key is neither applied nor logged, and the request is validated normally', async () => {
    const r = await h.api(
      'POST',
      '/v3/tests/1001/invite',
      '{"email":"proto@x.test","name":"P","__proto__":{"polluted":true}}',
    );
    expect(r.status).toBe(200);
    expect(({} as any).polluted).toBeUndefined();
    const last = (await h.control('GET', '/requests?limit=1')).body.requests[0];
    expect(last.body).toEqual({ email: 'proto@x.test', name: 'P' });
  });
});
