// Fault injection over HTTP: the control API (/_sandbox/faults), faults before the handler (no
// state change) and after it (state changed, the answer lost or replaced), Retry-After on 429,
// and the control API never faulted. Uses undici directly to see resets as socket errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from './helpers.js';
import { loadUndici } from '../../src/api/undici.js';

// undici 8 or 7, as this Node gets it (src/api/undici.ts)
const { Agent, request } = await loadUndici();

let h: Harness;
const agent = new Agent({ keepAliveTimeout: 5_000 });
beforeAll(async () => (h = await harness()));
afterAll(async () => {
  await agent.close();
  await h.close();
});

const setFaults = async (spec: unknown) => {
  const r = await h.control('POST', '/faults', spec);
  expect(r.status).toBe(200);
  return r.body as {
    spec: string;
    counters: { total: number; injected: Record<string, { before: number; after: number }> };
  };
};
/** One invite with a raw client: the status and body, or the socket error code. */
async function invite(
  email: string,
): Promise<{ status?: number; body?: string; retryAfter?: unknown; error?: string }> {
  try {
    const r = await request(`${h.sb.baseUrl}/v3/tests/1001/invite`, {
      method: 'POST',
      dispatcher: agent,
      headers: { 'X-API-KEY': h.keyA, 'content-type': 'application/json' },
      body: JSON.stringify({ email, name: 'Fault Candidate' }),
    });
    return { status: r.statusCode, body: await r.body.text(), retryAfter: r.headers['retry-after'] };
  } catch (err) {
    return { error: (err as { code?: string }).code };
  }
}
const invitationsOf = async (email: string) =>
  (await h.control('GET', `/invitations?email=${encodeURIComponent(email)}`)).body.invitations as Array<{
    testInvitationId: number;
  }>;

describe('/_sandbox/faults', () => {
  it('POST sets a spec (text or JSON fields), GET shows it with counters, DELETE clears', async () => {
    expect((await setFaults({ spec: '5xx=0.1,latency=1ms,seed=42' })).spec).toBe('5xx=0.1,latency=1ms,seed=42');
    expect((await setFaults({ 429: 0.2, retryAfter: 2, seed: 1 })).spec).toBe('429=0.2,retryAfter=2,seed=1');
    expect((await h.control('GET', '/faults')).body).toEqual({
      spec: '429=0.2,retryAfter=2,seed=1',
      counters: { requests: 0, delayed: 0, total: 0, injected: {} },
    });
    const off = await h.control('DELETE', '/faults');
    expect(off.body.spec).toBeNull();
    expect((await h.control('GET', '/faults')).body.spec).toBeNull();
  });

  it('refuses a bad spec with 400 naming the problem, and keeps the current one', async () => {
    await setFaults({ spec: 'reset=0.1,seed=3' });
    const r = await h.control('POST', '/faults', { spec: 'reset=2' });
    expect(r.status).toBe(400);
    expect(r.body.errors[0]).toMatch(/reset=2: must be a probability/);
    expect((await h.control('POST', '/faults', { spec: 5 })).status).toBe(400);
    expect((await h.control('POST', '/faults', [1])).status).toBe(400);
    expect((await h.control('GET', '/faults')).body.spec).toBe('reset=0.1,seed=3');
    await h.control('DELETE', '/faults');
  });

  it('never faults the control API', async () => {
    await setFaults({ spec: 'reset=1' });
    for (let i = 0; i < 5; i++) expect((await h.control('GET', '/clock')).status).toBe(200);
    expect((await h.control('GET', '/faults')).body.counters.requests).toBe(0);
    await h.control('DELETE', '/faults');
  });
});

describe('faults before and after the state change', () => {
  it('a reset before the handler: no answer and no invitation', async () => {
    await setFaults({ spec: 'reset=1,after=0' });
    expect((await invite('reset-before@faults.test')).error).toBe('UND_ERR_SOCKET');
    await h.control('DELETE', '/faults');
    expect(await invitationsOf('reset-before@faults.test')).toEqual([]);
  });

  it('a reset after the handler: no answer, but the invitation exists; the retry gets the same one', async () => {
    await setFaults({ spec: 'reset=1,after=1' });
    expect((await invite('reset-after@faults.test')).error).toBe('UND_ERR_SOCKET');
    const counters = (await h.control('DELETE', '/faults')).body.counters;
    expect(counters.injected.reset).toEqual({ before: 0, after: 1 });
    const made = await invitationsOf('reset-after@faults.test');
    expect(made).toHaveLength(1);
    const retry = await invite('reset-after@faults.test');
    expect(JSON.parse(retry.body!).testInvitationId).toBe(made[0]!.testInvitationId);
    expect(await invitationsOf('reset-after@faults.test')).toHaveLength(1);
  });

  it('a 502 after the handler replaces the answer; the state change stands', async () => {
    await setFaults({ spec: '502=1,after=1' });
    const r = await invite('bad-gateway@faults.test');
    expect(r.status).toBe(502);
    expect(JSON.parse(r.body!).errors[0]).toMatch(/Bad gateway \(sandbox fault injection\)/);
    await h.control('DELETE', '/faults');
    expect(await invitationsOf('bad-gateway@faults.test')).toHaveLength(1);
  });

  it('a 503 before the handler changes nothing; it is in the request log with its status', async () => {
    await h.control('DELETE', '/requests');
    await setFaults({ spec: '503=1,after=0' });
    expect((await invite('unavailable@faults.test')).status).toBe(503);
    await h.control('DELETE', '/faults');
    expect(await invitationsOf('unavailable@faults.test')).toEqual([]);
    expect((await h.control('GET', '/requests')).body.requests.map((r: { status: number }) => r.status)).toEqual([503]);
  });

  it('a 429 carries Retry-After and is never applied after the handler', async () => {
    await setFaults({ spec: '429=1,after=1,retryAfter=3' });
    const r = await invite('limited@faults.test');
    expect(r.status).toBe(429);
    expect(r.retryAfter).toBe('3');
    await h.control('DELETE', '/faults');
    expect(await invitationsOf('limited@faults.test')).toEqual([]);
  });

  it('a PDF answer can be replaced (JSON 502) or dropped after the handler', async () => {
    await setFaults({ spec: '502=1,after=1' });
    const r = await request(`${h.sb.baseUrl}/v3/reports/900001/pdf`, {
      dispatcher: agent,
      headers: { 'X-API-KEY': h.keyA },
    });
    expect(r.statusCode).toBe(502);
    expect(r.headers['content-type']).toMatch(/application\/json/);
    expect(JSON.parse(await r.body.text()).errors).toHaveLength(1);
    await setFaults({ spec: 'reset=1,after=1' });
    await expect(
      request(`${h.sb.baseUrl}/v3/reports/900001/pdf`, { dispatcher: agent, headers: { 'X-API-KEY': h.keyA } }),
    ).rejects.toMatchObject({
      code: 'UND_ERR_SOCKET',
    });
    await h.control('DELETE', '/faults');
    const ok = await request(`${h.sb.baseUrl}/v3/reports/900001/pdf`, {
      dispatcher: agent,
      headers: { 'X-API-KEY': h.keyA },
    });
    expect(
      Buffer.from(await ok.body.arrayBuffer())
        .subarray(0, 5)
        .toString('latin1'),
    ).toBe('%PDF-');
  });

  it('a truncated answer: headers and part of the body, then the connection is cut; the state change stands', async () => {
    await setFaults({ spec: 'truncate=1' });
    const r = await request(`${h.sb.baseUrl}/v3/tests/1001/invite`, {
      method: 'POST',
      dispatcher: agent,
      headers: { 'X-API-KEY': h.keyA, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'truncated@faults.test', name: 'Cut Off' }),
    });
    expect(r.statusCode).toBe(200);
    await expect(r.body.text()).rejects.toMatchObject({ code: 'UND_ERR_SOCKET' });
    const pdf = await request(`${h.sb.baseUrl}/v3/reports/900001/pdf`, {
      dispatcher: agent,
      headers: { 'X-API-KEY': h.keyA },
    });
    expect(pdf.statusCode).toBe(200);
    await expect(pdf.body.arrayBuffer()).rejects.toMatchObject({ code: 'UND_ERR_SOCKET' });
    expect((await h.control('DELETE', '/faults')).body.counters.injected.truncate).toEqual({ before: 0, after: 2 });
    expect(await invitationsOf('truncated@faults.test')).toHaveLength(1);
  });

  it('the same seed gives the same faults to the same sequence of requests', async () => {
    const outcomes = async () => {
      await setFaults({ spec: '503=0.3,reset=0.3,after=0.5,seed=2024' });
      const seen: string[] = [];
      for (let i = 0; i < 30; i++) {
        const r = await invite(`seq${i}@faults.test`);
        seen.push(r.error ?? String(r.status));
      }
      return { seen, counters: (await h.control('DELETE', '/faults')).body.counters };
    };
    const first = await outcomes();
    expect(new Set(first.seen).size).toBe(3); // 200, 503 and socket errors all occur
    expect(await outcomes()).toEqual(first);
  });
});

describe('latency', () => {
  it('the handler runs at once; the answer is held until the latency has passed, never earlier', async () => {
    await setFaults({ spec: 'latency=300ms' });
    const sent = performance.now();
    let answered = false;
    const answer = invite('held@faults.test').finally(() => (answered = true));
    // the state changed while the answer is on its way (as on a network)
    let made: unknown[] = [];
    for (let i = 0; i < 100 && made.length === 0; i++) {
      made = await invitationsOf('held@faults.test');
      if (!made.length) await new Promise((r) => setTimeout(r, 10));
    }
    expect(made).toHaveLength(1);
    expect(answered).toBe(false); // the invitation existed before its answer came
    const r = await answer;
    expect(performance.now() - sent).toBeGreaterThanOrEqual(300);
    expect(r.status).toBe(200);
    expect((await h.control('DELETE', '/faults')).body.counters.delayed).toBe(1);
  });

  it('an error injected before the handler is answered after the latency, and changes nothing', async () => {
    await setFaults({ spec: 'latency=100ms,503=1,after=0' });
    const sent = performance.now();
    const r = await invite('held-503@faults.test');
    expect(r.status).toBe(503);
    expect(performance.now() - sent).toBeGreaterThanOrEqual(100);
    await h.control('DELETE', '/faults');
    expect(await invitationsOf('held-503@faults.test')).toEqual([]);
  });
});
