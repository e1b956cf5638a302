// Sandbox hardening, over raw HTTP, beyond what http-errors, http-control and deliveries already
// cover (one 1.1 MB body, one malformed body, isLoopback's basic cases, a hanging receiver, a
// relative redirect, an ftp: callback URL): the 1 MB limit at its exact edge and for chunked
// bodies, malformed JSON on every error shape, hostile JSON (wrong top-level types, deep nesting,
// __proto__), loopback-only binding (library and `assess sandbox serve`), the control API
// refusing non-loopback clients, and the deliverer with a never-ending answer body and absolute
// redirects (another server, file:).
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLoopback } from '../../src/sandbox/routes/control.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { buildServer } from '../../src/sandbox/server.js';
import { openState } from '../../src/sandbox/state-file.js';
import { startServer } from '../helpers/http-server.js';
import { spawnAssess } from '../helpers/spawn.js';
import { waitFor } from '../helpers/wait.js';

const LIMIT = 1024 * 1024;
let sb: RunningSandbox;
let key: string;
beforeAll(async () => {
  // a per-try timeout long enough for a loaded machine's answer headers, short enough to wait out
  sb = await startSandbox({ port: 0, delivery: { timeoutMs: 2000, maxAttempts: 2 } });
  key = sb.keys[0]!;
});
afterAll(async () => sb?.close());

async function post(
  path: string,
  body: string | Buffer,
  headers: Record<string, string> = { 'content-type': 'application/json' },
) {
  const res = await fetch(sb.baseUrl + path, { method: 'POST', headers: { 'X-API-KEY': key, ...headers }, body });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}
const control = async (method: string, path: string, body?: unknown) =>
  (
    await fetch(`${sb.baseUrl}/_sandbox${path}`, {
      method,
      headers: body ? { 'content-type': 'application/json' } : {},
      body: body ? JSON.stringify(body) : undefined,
    })
  ).json() as Promise<any>;
async function state(): Promise<unknown> {
  const { requests: _log, ...rest } = await control('GET', '/state');
  return rest;
}
/** A JSON invite body padded with trailing spaces (still valid JSON) to exactly `bytes`. */
const paddedInvite = (email: string, bytes: number) => {
  const json = JSON.stringify({ email, name: 'Edge' });
  return json + ' '.repeat(bytes - Buffer.byteLength(json));
};

describe('request bodies over 1 MB → 413 {errors}', () => {
  it('exactly 1 MB is read; one byte more is refused and changes nothing', async () => {
    expect((await post('/v3/tests/1001/invite', paddedInvite('edge.ok@example.com', LIMIT))).status).toBe(200);
    const before = await state();
    const r = await post('/v3/tests/1001/invite', paddedInvite('edge.over@example.com', LIMIT + 1));
    expect(r).toEqual({ status: 413, body: { errors: ['Request body is larger than 1 MB.'] } });
    expect(await state()).toEqual(before);
  });

  it('a chunked body (no Content-Length) is cut off at the limit too', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const url = new URL(`${sb.baseUrl}/v3/tests/1001/invite`);
      const req = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: { 'X-API-KEY': key, 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode!);
        },
      );
      req.on('error', reject);
      req.end(paddedInvite('chunked@example.com', LIMIT + 4096));
    });
    expect(status).toBe(413);
  });

  it('the control API and v2 have the same limit', async () => {
    const big = 'x'.repeat(LIMIT + 1);
    expect((await fetch(`${sb.baseUrl}/_sandbox/clock`, { method: 'POST', body: big })).status).toBe(413);
    expect((await post('/v2/org/tests/1001/register', big, {})).status).toBe(413); // the key header is case-insensitive
  });
});

describe('malformed and hostile JSON → 400, never 500', () => {
  const ENDPOINTS = [
    '/v3/tests/1001/invite',
    '/v3/tests/1001/testlinks/5002/invite',
    '/v3/invitations/900001/reattempt',
    '/v3/tests/1001/testlinks',
    '/v3/tests/1001/testlinks/5002',
    '/v3/tests/1001/settings',
    '/v3/candidates/testattempts?state=completed',
    '/v3/callbacks/process',
  ];
  it.each(ENDPOINTS)('%s: malformed JSON is 400 {errors} whatever the content type', async (path) => {
    for (const type of ['application/json', 'text/plain', 'application/x-www-form-urlencoded']) {
      const r = await post(path, '{"email": ', { 'content-type': type });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ errors: [expect.stringMatching(/^Malformed JSON body/)] });
    }
  });

  it('JSON of the wrong top-level type gets the endpoint’s own 4xx shape', async () => {
    for (const body of ['[]', '"x"', '123', 'true']) {
      expect(await post('/v3/tests/1001/invite', body)).toMatchObject({
        status: 400,
        body: { errors: [expect.stringMatching(/expected object/)] },
      });
      expect(await post('/v3/invitations/900001/reattempt', body)).toMatchObject({
        status: 400,
        body: { statusCode: 400, message: expect.stringMatching(/expected object/) },
      });
      expect(await post('/v3/callbacks/process', body)).toMatchObject({
        status: 400,
        body: { result: null, errors: [expect.any(String)] },
      });
    }
  });

  it('deeply nested JSON (200,000 levels) is a 400, not a crash', async () => {
    const arrays = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
    expect((await post('/v3/tests/1001/invite', arrays)).status).toBe(400);
    const objects = `{"email":"deep@example.com","name":"D","callbackURL":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}`;
    expect((await post('/v3/tests/1001/invite', objects)).status).toBe(400);
    expect((await fetch(`${sb.baseUrl}/v3/tests`, { headers: { 'X-API-KEY': key } })).status).toBe(200); // still serving
  });

  it('__proto__ and constructor.prototype in a body pollute nothing', async () => {
    const r = await post(
      '/v3/tests/1001/invite',
      '{"email":"proto@example.com","name":"P","__proto__":{"polluted":1},"constructor":{"prototype":{"polluted2":1}}}',
    );
    expect(r.status).toBe(200);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted2).toBeUndefined();
    const logged = (await control('GET', '/requests?limit=1')).requests[0];
    expect(Object.keys(logged.body)).not.toContain('__proto__');
  });
});

/** Resolves with the connect error code, or 'connected'. */
const tryConnect = (host: string, port: number) =>
  new Promise<string>((resolve) => {
    const sock = connect({ host, port }, () => (sock.destroy(), resolve('connected')));
    sock.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
  });

describe('the sandbox binds 127.0.0.1 unless told otherwise', () => {
  it('startSandbox(): loopback base URL; not reachable on another address (127.0.0.2), unlike a 0.0.0.0 bind', async () => {
    const own = await startSandbox();
    const wide = await startSandbox({ host: '0.0.0.0' });
    try {
      expect(own.baseUrl).toBe(`http://127.0.0.1:${own.port}`);
      expect(await tryConnect('127.0.0.1', own.port)).toBe('connected');
      expect(await tryConnect('127.0.0.2', own.port)).toBe('ECONNREFUSED');
      expect(await tryConnect('127.0.0.2', wide.port)).toBe('connected'); // the probe can tell the difference
    } finally {
      await own.close();
      await wide.close();
    }
  });

  it('`assess sandbox serve` without --host listens on 127.0.0.1 only', async () => {
    const serve = spawnAssess(['sandbox', 'serve', '--port', '0', '--json']);
    try {
      const { baseUrl } = JSON.parse(await serve.firstLine()) as { baseUrl: string };
      const url = new URL(baseUrl);
      expect(url.hostname).toBe('127.0.0.1');
      expect(await tryConnect('127.0.0.1', Number(url.port))).toBe('connected');
      expect(await tryConnect('127.0.0.2', Number(url.port))).toBe('ECONNREFUSED');
    } finally {
      expect((await serve.stop()).code).toBe(0);
    }
  });
});

describe('the control API answers loopback clients only', () => {
  it('isLoopback: the loopback forms Node reports, nothing else', () => {
    expect(['127.0.0.1', '127.0.0.2', '127.255.255.254', '::1', '::ffff:127.0.0.1'].map(isLoopback)).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    const others = [
      '0.0.0.0',
      '::',
      '::2',
      '10.0.0.1',
      '192.0.2.7',
      '::ffff:10.0.0.1',
      'fe80::1',
      'fd00::2',
      '1127.0.0.1',
      '',
      undefined,
    ];
    expect(others.map(isLoopback)).toEqual(others.map(() => false));
  });

  it('a non-loopback client gets 403 on every control route (keys included) and changes nothing; the API still answers it', async () => {
    const app = buildServer(openState({}), { log: () => undefined });
    await app.ready();
    try {
      const from = (remoteAddress: string, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) =>
        app.inject({ method, url, remoteAddress, payload: payload as Record<string, unknown> | undefined });
      const before = (await from('127.0.0.1', 'GET', '/_sandbox/state')).json();
      for (const [method, url, payload] of [
        ['GET', '/_sandbox/'],
        ['GET', '/_sandbox/state'],
        ['GET', '/_sandbox/requests'],
        ['POST', '/_sandbox/reset'],
        ['POST', '/_sandbox/clock', { advance: '30d' }],
        ['POST', '/_sandbox/invitations/900004/simulate', { to: 'complete' }],
        ['DELETE', '/_sandbox/requests'],
      ] as const) {
        const r = await from('192.0.2.7', method, url, payload);
        expect(r.statusCode, `${method} ${url}`).toBe(403);
        expect(r.json()).toEqual({ errors: ['The sandbox control API answers loopback clients only.'] });
        expect(r.body).not.toContain('sk_sandbox_');
      }
      const after = (await from('127.0.0.1', 'GET', '/_sandbox/state')).json();
      expect({ ...after, requests: [] }).toEqual({ ...before, requests: [] });
      expect((await from('127.0.0.1', 'GET', '/_sandbox/')).statusCode).toBe(200);
      const api = await app.inject({
        method: 'GET',
        url: '/v3/tests',
        remoteAddress: '192.0.2.7',
        headers: { 'x-api-key': key },
      });
      expect(api.statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});

describe('callback delivery: bounded and never redirected', () => {
  async function deliverTo(url: string, email: string) {
    const inv = await post('/v3/tests/1001/invite', JSON.stringify({ email, name: 'Hook', callbackURL: url }));
    const id = inv.body.testInvitationId as number;
    await control('POST', `/invitations/${id}/simulate`, { to: 'start' });
    const [d] = await waitFor(
      async () => {
        const list = (await control('GET', `/deliveries?invitation=${id}`)).deliveries as any[];
        return list.length && list[0].state !== 'pending' ? list : null;
      },
      { what: `the delivery for ${email} to finish` },
    );
    return d;
  }

  it('an answer whose body never ends does not hold the delivery (nor the deliverer) forever', async () => {
    const open: Array<{ end(): void }> = [];
    const rx = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('still sending…');
      open.push(res); // never ended by the receiver
    });
    try {
      const d = await deliverTo(`${rx.url}/slow-body`, 'slow.body@example.com');
      // 2xx headers make it delivered; the body is drained only until the per-try timeout.
      expect(d).toMatchObject({ state: 'delivered', attempts: [{ n: 1, status: 200, error: null }] });
      expect(await sb.idle(30_000)).toBe(true);
    } finally {
      open.forEach((r) => r.end());
      await rx.close();
    }
  });

  it.each([
    [307, 'another http server', (other: string) => `${other}/stolen`],
    [302, 'a file: URL', () => 'file:///etc/passwd'],
    [301, 'a javascript: URL', () => 'javascript:alert(1)'],
  ])('%i to %s is not followed: a failed try, nothing reaches the target', async (status, _what, target) => {
    const other = await startServer((_req, res) => res.writeHead(200).end());
    const rx = await startServer((_req, res) => res.writeHead(status, { location: target(other.url) }).end());
    try {
      const d = await deliverTo(`${rx.url}/hook`, `redirect.${status}@example.com`);
      expect(d.state).toBe('failed');
      expect(d.attempts).toHaveLength(2);
      for (const a of d.attempts) expect(a.error).toMatch(/redirect not followed/);
      expect(other.requests).toEqual([]);
    } finally {
      await rx.close();
      await other.close();
    }
  });
});
