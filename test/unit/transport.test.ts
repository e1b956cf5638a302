import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from '../../src/api/errors.js';
import { keepAlivePool } from '../../src/api/keep-alive.js';
import { Pace } from '../../src/api/pace.js';
import { Transport } from '../../src/api/transport.js';
import { WaitBudget } from '../../src/api/wait-budget.js';
import { json, startServer } from '../helpers/http-server.js';

const KEY = 'sk_test_supersecret_0123456789';
const noSleep = async () => undefined;
let close: (() => Promise<void>) | undefined;
/** The keep-alive pool a CLI run would give its clients, closed after each test. */
const pool = keepAlivePool({});
afterEach(async () => {
  await close?.();
  close = undefined;
  await pool.close();
});

function transport(url: string, extra: Partial<ConstructorParameters<typeof Transport>[0]> = {}) {
  return new Transport({
    baseUrl: url,
    apiKey: KEY,
    authHeader: 'X-API-KEY',
    sleep: noSleep,
    maxAttempts: 4,
    pool: pool.get,
    ...extra,
  });
}

describe('transport', () => {
  it('sends the key header, a user agent and a JSON content type', async () => {
    const s = await startServer((_r, res) => json(res, 200, { ok: true }));
    close = s.close;
    await transport(s.url).json({ operation: 't', method: 'POST', path: '/v3/x', body: { a: 1 }, repeat: 'once' });
    const h = s.requests[0]!.headers;
    expect(h['x-api-key']).toBe(KEY);
    expect(h['content-type']).toBe('application/json; charset=utf-8');
    expect(h['user-agent']).toMatch(/^assess-cli\//);
    expect(s.requests[0]!.body).toBe('{"a":1}');
  });

  it('asks its guard before anything goes out: a guard that throws keeps the request here', async () => {
    const s = await startServer((_r, res) => json(res, 200, {}));
    close = s.close;
    const asked: string[] = [];
    const t = transport(s.url, {
      guard: (spec) => {
        asked.push(`${spec.method} ${spec.path}`);
        if (spec.method !== 'GET') throw new Error('held');
      },
    });
    await t.json({ operation: 't', method: 'GET', path: '/v3/tests', repeat: 'read' });
    await expect(
      t.json({ operation: 't', method: 'POST', path: '/v3/x', body: {}, repeat: 'idempotent' }),
    ).rejects.toThrow('held');
    expect(asked).toEqual(['GET /v3/tests', 'POST /v3/x']);
    expect(s.requests.map((r) => r.method)).toEqual(['GET']);
  });

  it('retries a GET on 503 and succeeds', async () => {
    const s = await startServer((_r, res, n) =>
      n < 3 ? json(res, 503, { errors: ['busy'] }) : json(res, 200, { tests: [] }),
    );
    close = s.close;
    const r = await transport(s.url).json({ operation: 't', method: 'GET', path: '/v3/tests', repeat: 'read' });
    expect(r.data).toEqual({ tests: [] });
    expect(s.requests).toHaveLength(3);
  });

  it('does not retry a create on 503', async () => {
    const s = await startServer((_r, res) => json(res, 503, { errors: ['busy'] }));
    close = s.close;
    await expect(
      transport(s.url).json({ operation: 't', method: 'POST', path: '/v3/x', body: {}, repeat: 'once' }),
    ).rejects.toBeInstanceOf(ApiError);
    expect(s.requests).toHaveLength(1);
  });

  it('gives up after the attempt cap with the last error', async () => {
    const s = await startServer((_r, res) => json(res, 429, { errors: ['slow down'] }, { 'retry-after': '0' }));
    close = s.close;
    const err = await transport(s.url, { maxAttempts: 3 })
      .json({ operation: 't', method: 'GET', path: '/v3/tests', repeat: 'read' })
      .catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.kind).toBe('rate_limited');
    expect(err.attempts).toBe(3);
    expect(s.requests).toHaveLength(3);
  });

  it('a paced run (bulk): a 429 without Retry-After slows the pace and does not use up an attempt', async () => {
    // six 429s, then an answer: four attempts would have given up; the pace slowed at each one
    const s = await startServer((_r, res, n) =>
      n <= 6 ? json(res, 429, { errors: ['slow down'] }) : json(res, 200, { ok: true }),
    );
    close = s.close;
    let t = 0;
    const pace = new Pace({ now: () => (t += 50) });
    const r = await transport(s.url, { gate: pace }).json({
      operation: 't',
      method: 'POST',
      path: '/v3/tests/1/invite',
      body: {},
      repeat: 'idempotent',
    });
    expect(r.status).toBe(200);
    expect(s.requests).toHaveLength(7);
    expect(pace.throttled).toBe(6);
    expect(pace.current()).not.toBeNull();
  });

  it('a paced run still gives up on a service that answers nothing but 429 (20 more tries)', async () => {
    const s = await startServer((_r, res) => json(res, 429, { errors: ['slow down'] }));
    close = s.close;
    let t = 0;
    const err = await transport(s.url, { gate: new Pace({ now: () => (t += 50) }) })
      .json({ operation: 't', method: 'POST', path: '/v3/tests/1/invite', body: {}, repeat: 'idempotent' })
      .catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.kind).toBe('rate_limited');
    expect(s.requests).toHaveLength(4 + 20);
  });

  it('waits for Retry-After before the next attempt', async () => {
    const waits: number[] = [];
    const s = await startServer((_r, res, n) =>
      n === 1 ? json(res, 429, {}, { 'retry-after': '7' }) : json(res, 200, {}),
    );
    close = s.close;
    await transport(s.url, { sleep: async (ms) => void waits.push(ms) }).json({
      operation: 't',
      method: 'GET',
      path: '/',
      repeat: 'read',
    });
    expect(waits).toContain(7000);
  });

  it('retries a connection refused even for a create (nothing was sent)', async () => {
    const s = await startServer(() => undefined);
    const url = s.url;
    await s.close();
    const err = await transport(url, { maxAttempts: 2 })
      .json({ operation: 't', method: 'POST', path: '/v3/tests/1/testlinks', body: {}, repeat: 'once' })
      .catch((e) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.code).toBe('ECONNREFUSED');
    expect(err.attempts).toBe(2);
  });

  it('retries a reset connection for an invite but not for a create', async () => {
    let resets = 0;
    const s = await startServer((_r, res) => {
      resets++;
      res.socket?.destroy();
    });
    close = s.close;
    await expect(
      transport(s.url, { maxAttempts: 3 }).json({
        operation: 'v3.invite',
        method: 'POST',
        path: '/i',
        body: {},
        repeat: 'idempotent',
      }),
    ).rejects.toBeInstanceOf(NetworkError);
    expect(resets).toBe(3);
    resets = 0;
    await expect(
      transport(s.url, { maxAttempts: 3 }).json({
        operation: 'v3.createLink',
        method: 'POST',
        path: '/c',
        body: {},
        repeat: 'once',
      }),
    ).rejects.toBeInstanceOf(NetworkError);
    expect(resets).toBe(1);
  });

  it('times out and reports it', async () => {
    const s = await startServer(() => undefined); // never answers
    close = s.close;
    const err = await transport(s.url, { tryTimeoutMs: 200, maxAttempts: 1 })
      .json({ operation: 't', method: 'GET', path: '/', repeat: 'read' })
      .catch((e) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.timedOut).toBe(true);
  });

  it('keeps the key out of the debug log, even when the server echoes it', async () => {
    const lines: string[] = [];
    const s = await startServer((r, res) => json(res, 400, { errors: [`bad key ${r.headers['x-api-key']}`] }));
    close = s.close;
    const err = await transport(s.url, { debug: (l) => lines.push(l) })
      .json({ operation: 't', method: 'GET', path: `/v3/tests?k=${KEY}`, repeat: 'read' })
      .catch((e) => e);
    const log = lines.join('\n');
    expect(log).toContain('X-API-KEY: ****');
    expect(log).not.toContain(KEY);
    expect(err.request.url).not.toContain(KEY);
    expect(err.message).not.toContain(KEY);
  });

  it('calls onAnswered once the final answer is in, before it is read (a 4xx too; not without an answer)', async () => {
    const seen: string[] = [];
    const s = await startServer((_r, res, n) =>
      n === 1 ? json(res, 503, {}) : n === 2 ? json(res, 201, { id: 7 }) : json(res, 400, { errors: ['no'] }),
    );
    close = s.close;
    const t = transport(s.url);
    const onAnswered = async () => {
      seen.push(`answered after ${s.requests.length} request(s)`);
      await new Promise((r) => setImmediate(r));
    };
    const ok = await t.json({ operation: 't', method: 'POST', path: '/i', body: {}, repeat: 'idempotent', onAnswered });
    seen.push(`read ${JSON.stringify(ok.data)}`);
    await t
      .json({ operation: 't', method: 'POST', path: '/i', body: {}, repeat: 'idempotent', onAnswered })
      .catch((e) => seen.push(`thrown ${e.status}`));
    expect(seen).toEqual(['answered after 2 request(s)', 'read {"id":7}', 'answered after 3 request(s)', 'thrown 400']);
    await s.close();
    close = undefined;
    let called = 0;
    await t
      .json({ operation: 't', method: 'GET', path: '/', repeat: 'read', onAnswered: () => called++ })
      .catch(() => undefined);
    expect(called).toBe(0);
  });

  it('keeps a base URL’s path, drops undefined query values, and sends a repeated path the same way', async () => {
    const s = await startServer((_r, res) => json(res, 200, {}));
    close = s.close;
    const t = transport(`${s.url}/api/`);
    const get = (query?: Record<string, string | number | undefined>) =>
      t.json({ operation: 't', method: 'GET', path: '/v3/x', query, repeat: 'read' });
    await get();
    await get({ a: 1, b: undefined, c: 'x y' });
    await get();
    await get({ b: undefined });
    expect(s.requests.map((r) => r.url)).toEqual(['/api/v3/x', '/api/v3/x?a=1&c=x+y', '/api/v3/x', '/api/v3/x']);
  });

  it('the deadline holds with and without the user’s signal, and Ctrl-C stays apart from it', async () => {
    const s = await startServer(() => undefined); // never answers
    close = s.close;
    const get = (extra: Parameters<typeof transport>[1]) =>
      transport(s.url, { tryTimeoutMs: 150, maxAttempts: 1, ...extra })
        .json({ operation: 't', method: 'GET', path: '/', repeat: 'read' })
        .catch((e) => e);
    const bare = await get({});
    expect(bare).toBeInstanceOf(NetworkError);
    expect(bare.timedOut).toBe(true);
    const withSignal = await get({ signal: new AbortController().signal });
    expect(withSignal).toBeInstanceOf(NetworkError);
    expect(withSignal.timedOut).toBe(true);
    const ctrlC = new AbortController();
    setTimeout(() => ctrlC.abort(new Error('interrupted')), 30);
    const interrupted = await get({ signal: ctrlC.signal, tryTimeoutMs: 5_000 });
    expect(interrupted).not.toBeInstanceOf(NetworkError);
    expect(String(interrupted.message)).toMatch(/interrupted/);
  });
});

describe('--timeout: one budget for the whole command, retries and backoffs included', () => {
  /** A clock that only the transport's sleeps move. */
  function clocked() {
    let now = 0;
    return { clock: () => now, sleep: async (ms: number) => void (now += ms), at: () => now };
  }

  it('a backoff that would outlast the budget is not waited for: the last answer stands', async () => {
    const s = await startServer((_r, res) => json(res, 503, { errors: ['busy'] }));
    close = s.close;
    const c = clocked();
    // random 0: backoffs of 125, 250, 500 ms; a budget of 600 ms affords the first two only
    const t = transport(s.url, { budget: new WaitBudget(600, c.clock), sleep: c.sleep, random: () => 0 });
    const err = await t.json({ operation: 't', method: 'GET', path: '/v3/tests', repeat: 'read' }).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(503);
    expect(s.requests).toHaveLength(3);
    expect(c.at()).toBe(375);
  });

  it('with budget to spare, the attempts are the limit as before', async () => {
    const s = await startServer((_r, res) => json(res, 503, { errors: ['busy'] }));
    close = s.close;
    const c = clocked();
    const t = transport(s.url, { budget: new WaitBudget(10_000, c.clock), sleep: c.sleep, random: () => 0 });
    await t.json({ operation: 't', method: 'GET', path: '/v3/tests', repeat: 'read' }).catch(() => undefined);
    expect(s.requests).toHaveLength(4);
  });

  it('a spent budget sends nothing more, and says it was the command’s --timeout', async () => {
    const s = await startServer((_r, res) => json(res, 200, { tests: [] }));
    close = s.close;
    let now = 0;
    const budget = new WaitBudget(1000, () => now);
    const t = transport(s.url, { budget });
    await t.json({ operation: 't', method: 'GET', path: '/v3/tests', repeat: 'read' });
    now = 1000;
    const err = await t.json({ operation: 't', method: 'GET', path: '/v3/tests', repeat: 'read' }).catch((e) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.timedOut).toBe(true);
    expect(err.message).toMatch(/timed out: the command's --timeout of 1 s passed/);
    expect(s.requests).toHaveLength(1);
  });

  it('a try that never answers ends at what is left of the budget, not at the try limit, and is not repeated', async () => {
    const s = await startServer(() => undefined); // never answers
    close = s.close;
    const t = transport(s.url, { budget: new WaitBudget(200), tryTimeoutMs: 30_000 });
    const err = await t.json({ operation: 't', method: 'GET', path: '/', repeat: 'read' }).catch((e) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.message).toMatch(/the command's --timeout of 0\.2 s passed/);
    expect(s.requests).toHaveLength(1);
  });
});
