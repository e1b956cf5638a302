// The transport honours HTTP(S)_PROXY and NO_PROXY (undici's EnvHttpProxyAgent, as the run's
// keep-alive pool makes it: src/api/keep-alive.ts): a request to a proxied host goes through a
// CONNECT tunnel (http:// targets too: `proxyTunnel`); one to a NO_PROXY host goes direct. The
// proxy here is a real one — it also forwards absolute-form requests, as a client that does not
// tunnel http:// sends them — and records how each request came, so a change of form fails on
// that, not on what the proxy answered.
import { createServer, request, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keepAlivePool } from '../../src/api/keep-alive.js';
import { Transport } from '../../src/api/transport.js';
import { loadUndici } from '../../src/api/undici.js';
import { runAssess } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { json, startServer } from '../helpers/http-server.js';

let target: Awaited<ReturnType<typeof startServer>>;
let proxy: Server;
let proxyUrl = '';
/** What reached the proxy: a CONNECT tunnel to host:port, or a request forwarded to it. */
const seen: Array<{ via: 'tunnel' | 'forward'; host: string }> = [];

beforeAll(async () => {
  target = await startServer((_r, res) => json(res, 200, { tests: [] }));
  proxy = createServer((req, res) => {
    const url = new URL(req.url!); // absolute form: http://host:port/path
    seen.push({ via: 'forward', host: url.host });
    const upstream = request(url, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  proxy.on('connect', (req, client, head) => {
    seen.push({ via: 'tunnel', host: req.url! });
    const [host, port] = req.url!.split(':');
    const upstream = connect(Number(port), host!, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await target.close();
  proxy.closeAllConnections();
  await new Promise<void>((r) => proxy.close(() => r()));
});

/** One GET through the dispatcher a CLI run makes from `env`. */
async function send(env: Record<string, string>) {
  const pool = keepAlivePool(env);
  try {
    return await new Transport({
      baseUrl: target.url,
      apiKey: 'sk_proxy_test_123456',
      authHeader: 'X-API-KEY',
      pool: pool.get,
      maxAttempts: 1,
    }).json({ operation: 't', method: 'GET', path: '/v3/tests', idempotent: true });
  } finally {
    await pool.close();
  }
}
const targetHost = () => new URL(target.url).host;

describe('proxy settings', () => {
  it('goes through HTTP_PROXY, in a CONNECT tunnel', async () => {
    const before = seen.length;
    expect((await send({ HTTP_PROXY: proxyUrl, NO_PROXY: '' })).data).toEqual({ tests: [] });
    expect(seen.slice(before)).toEqual([{ via: 'tunnel', host: targetHost() }]);
  });

  it('reads http_proxy and no_proxy in lower case too, before the upper-case ones', async () => {
    const before = seen.length;
    expect((await send({ http_proxy: proxyUrl, HTTP_PROXY: 'http://127.0.0.1:9', no_proxy: '' })).data).toEqual({
      tests: [],
    });
    expect(seen.slice(before)).toEqual([{ via: 'tunnel', host: targetHost() }]);
    expect((await send({ HTTP_PROXY: proxyUrl, no_proxy: '127.0.0.1', NO_PROXY: '' })).data).toEqual({ tests: [] });
    expect(seen.length).toBe(before + 1);
  });

  it('skips the proxy for NO_PROXY hosts', async () => {
    const before = seen.length;
    expect((await send({ HTTP_PROXY: proxyUrl, NO_PROXY: '127.0.0.1' })).data).toEqual({ tests: [] });
    expect(seen.length).toBe(before);
  });

  it('the built CLI reads HTTP_PROXY and NO_PROXY from its environment', async () => {
    const env = {
      ASSESS_BASE_URL: target.url,
      ASSESS_API_KEY: 'sk_proxy_test_123456',
      HTTP_PROXY: proxyUrl,
      NO_PROXY: '',
    };
    const before = seen.length;
    const via = await runAssess(['api', 'GET', '/v3/tests'], { env });
    expect(via.code, via.stderr).toBe(0);
    expect(seen.slice(before)).toEqual([{ via: 'tunnel', host: targetHost() }]);
    const direct = await runAssess(['api', 'GET', '/v3/tests'], { env: { ...env, NO_PROXY: '127.0.0.1' } });
    expect(direct.code, direct.stderr).toBe(0);
    expect(seen.length).toBe(before + 1);
  });

  it('the built CLI sends https:// through HTTPS_PROXY (the tunnel is asked for before TLS, which fails here)', async () => {
    const env = {
      ASSESS_BASE_URL: target.url.replace('http:', 'https:'), // a plain HTTP server: the handshake fails
      ASSESS_API_KEY: 'sk_proxy_test_123456',
      HTTPS_PROXY: proxyUrl,
      HTTP_PROXY: 'http://127.0.0.1:9', // not for https://
      NO_PROXY: '',
    };
    const before = seen.length;
    const via = await runAssess(['api', 'GET', '/v3/tests'], { env });
    expect(via.code).toBe(6);
    const tunnels = seen.slice(before);
    expect(tunnels.length).toBeGreaterThan(0); // one per attempt
    expect(new Set(tunnels.map((t) => `${t.via} ${t.host}`))).toEqual(new Set([`tunnel ${targetHost()}`]));
    const direct = await runAssess(['api', 'GET', '/v3/tests'], { env: { ...env, NO_PROXY: '127.0.0.1' } });
    expect(direct.code).toBe(6);
    expect(seen.length).toBe(before + tunnels.length);
  });

  it("this test's proxy forwards absolute-form requests too (a client that does not tunnel http://)", async () => {
    const { ProxyAgent, request: get } = await loadUndici();
    const agent = new ProxyAgent({ uri: proxyUrl, proxyTunnel: false });
    const before = seen.length;
    try {
      const res = await get(`${target.url}/v3/tests`, { dispatcher: agent });
      expect(await res.body.json()).toEqual({ tests: [] });
    } finally {
      await agent.close();
    }
    expect(seen.slice(before)).toEqual([{ via: 'forward', host: targetHost() }]);
  });

  it("a run's proxies are its Context's environment, not the process's", async () => {
    const env = { ASSESS_BASE_URL: target.url, ASSESS_API_KEY: 'sk_proxy_test_123456', NO_PROXY: '' };
    const before = seen.length;
    expect((await runInProcess(['api', 'GET', '/v3/tests'], { env: { ...env, HTTP_PROXY: proxyUrl } })).code).toBe(0);
    expect(seen.length).toBe(before + 1);
    const saved = process.env.HTTP_PROXY;
    process.env.HTTP_PROXY = proxyUrl;
    try {
      expect((await runInProcess(['api', 'GET', '/v3/tests'], { env })).code).toBe(0);
    } finally {
      if (saved === undefined) delete process.env.HTTP_PROXY;
      else process.env.HTTP_PROXY = saved;
    }
    expect(seen.length).toBe(before + 1);
  });
});
