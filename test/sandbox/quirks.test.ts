// Quirks mode of the sandbox: deterministic per seed, switchable at run time, state unchanged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let s: TestSandbox;
beforeAll(async () => {
  s = await startTestSandbox();
});
afterAll(() => s.close());

const get = async (path: string) => {
  const res = await fetch(`${s.sb.baseUrl}${path}`, { headers: { 'X-API-KEY': s.sb.keys[0]! } });
  return { status: res.status, text: await res.text() };
};

describe('quirks mode', () => {
  it('is off by default: answers are the spec shapes', async () => {
    expect(await s.control('GET', '/quirks')).toMatchObject({ seed: null });
    expect(JSON.parse((await get('/v3/tests')).text).tests[0]).toMatchObject({
      testId: 1001,
      testName: 'Java Backend Developer',
    });
  });

  it('the same seed gives the same answers to the same requests', async () => {
    const run = async () => {
      await s.control('POST', '/quirks', { seed: 42 });
      const out: string[] = [];
      for (const p of [
        '/v3/tests',
        '/v3/tests/1001',
        '/v3/reports/900001?reportType=3',
        '/v3/tests/1001/testlinks',
        '/v3/tests',
      ])
        out.push((await get(p)).text);
      return out;
    };
    const a = await run();
    expect(await run()).toEqual(a);
    // and varies between seeds
    await s.control('POST', '/quirks', { seed: 43 });
    const other = [(await get('/v3/tests')).text, (await get('/v3/tests/1001')).text];
    expect(other).not.toEqual([a[0], a[1]]);
  });

  it('across seeds the production forms all appear: Status, Completed, string ids, envelopes, nulls, 201', async () => {
    const seen = new Set<string>();
    for (let seed = 1; seed <= 30; seed++) {
      await s.control('POST', '/quirks', { seed });
      const rep = await get('/v3/reports/900001?reportType=3');
      if (rep.text.includes('"Status"')) seen.add('Status');
      if (/"testId":"1001"/.test(rep.text)) seen.add('testId string');
      const tests = await get('/v3/tests');
      if (/"testId":"\d+"/.test(tests.text)) seen.add('ids as strings');
      if (tests.text.startsWith('{"result":')) seen.add('envelope');
      if (/":null/.test(tests.text + rep.text)) seen.add('null');
      const attempts = await fetch(`${s.sb.baseUrl}/v3/candidates/testattempts?state=completed`, {
        method: 'POST',
        headers: { 'X-API-KEY': s.sb.keys[0]!, 'content-type': 'application/json' },
        body: JSON.stringify({ StartDateTime: '2000-01-01T00:00:00Z', EndDateTime: '2100-01-01T00:00:00Z' }),
      });
      if ((await attempts.text()).includes('"Completed"')) seen.add('Completed');
      if (attempts.status === 201) seen.add('201');
    }
    expect([...seen].sort()).toEqual(
      ['201', 'Completed', 'Status', 'envelope', 'ids as strings', 'null', 'testId string'].sort(),
    );
  });

  it("a listing's rows are never nulled or left out: tests, links, time zones", async () => {
    const rows = (text: string, key: string) => {
      const body = JSON.parse(text) as Record<string, unknown> & { result?: Record<string, unknown> };
      return (body.result ?? body)[key];
    };
    for (let seed = 1; seed <= 30; seed++) {
      await s.control('POST', '/quirks', { seed });
      expect(rows((await get('/v3/tests')).text, 'tests'), `seed ${seed}`).toEqual(expect.any(Array));
      expect(rows((await get('/v3/tests/1001/testlinks')).text, 'testLinks'), `seed ${seed}`).toEqual(
        expect.any(Array),
      );
      expect(rows((await get('/v3/timezones')).text, 'timeZones'), `seed ${seed}`).toEqual(expect.any(Array));
    }
  });

  it('a seed with production typeOfTest numbering reads 0/1 and takes 0/1 back', async () => {
    let seed = 1;
    for (; seed < 100; seed++) {
      const v = await s.control<{ vendorTypeOfTest: boolean }>('POST', '/quirks', { seed });
      if (v.vendorTypeOfTest) break;
    }
    const read = JSON.parse((await get('/v3/tests/1001/settings')).text);
    const settings = read.result ?? read;
    expect(settings.testSettings.typeOfTest).toBe(0); // the spec's 1 (multiple)
    const res = await fetch(`${s.sb.baseUrl}/v3/tests/1001/settings`, {
      method: 'POST',
      headers: { 'X-API-KEY': s.sb.keys[0]!, 'content-type': 'application/json' },
      body: JSON.stringify(settings),
    });
    expect([200, 201]).toContain(res.status);
    const state = await s.control<{
      settings: Array<{ testId: number; settings: { testSettings: { typeOfTest: number } } }>;
    }>('GET', '/state');
    expect(state.settings.find((x) => x.testId === 1001)!.settings.testSettings.typeOfTest).toBe(1);
  });

  it('a bad seed is refused; null turns quirks off', async () => {
    await expect(s.control('POST', '/quirks', { seed: 'x' })).rejects.toThrow(/400/);
    expect(await s.control('POST', '/quirks', { seed: null })).toMatchObject({ seed: null });
    expect(JSON.parse((await get('/v3/tests')).text).tests[0].testId).toBe(1001);
  });
});
