// The transport honours HTTP(S)_PROXY and NO_PROXY (undici's EnvHttpProxyAgent): a request to a
// proxied host goes through a CONNECT tunnel; one to a NO_PROXY host goes direct.
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Transport } from '../../src/api/transport.js';
import { loadUndici } from '../../src/api/undici.js';
import { runAssess } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { json, startServer } from '../helpers/http-server.js';

// undici 8 or 7, as this Node gets it (src/api/undici.ts)
const { EnvHttpProxyAgent } = await loadUndici();

let target: Awaited<ReturnType<typeof startServer>>;
let proxy: Server;
let proxyUrl = '';
const tunnels: string[] = [];

beforeAll(async () => {
  target = await startServer((_r, res) => json(res, 200, { tests: [] }));
  proxy = createServer((_req, res) => res.writeHead(405).end());
  proxy.on('connect', (req, client, head) => {
    tunnels.push(req.url!);
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

function send(dispatcher: InstanceType<typeof EnvHttpProxyAgent>) {
  return new Transport({
    baseUrl: target.url,
    apiKey: 'sk_proxy_test_123456',
    authHeader: 'X-API-KEY',
    dispatcher,
    maxAttempts: 1,
  }).json({
    operation: 't',
    method: 'GET',
    path: '/v3/tests',
    repeat: 'read',
  });
}

describe('proxy settings', () => {
  it('goes through HTTP_PROXY', async () => {
    const agent = new EnvHttpProxyAgent({ httpProxy: proxyUrl, noProxy: '' });
    const before = tunnels.length;
    expect((await send(agent)).data).toEqual({ tests: [] });
    expect(tunnels.length).toBe(before + 1);
    expect(tunnels.at(-1)).toBe(new URL(target.url).host);
    await agent.close();
  });

  it('skips the proxy for NO_PROXY hosts', async () => {
    const agent = new EnvHttpProxyAgent({ httpProxy: proxyUrl, noProxy: '127.0.0.1' });
    const before = tunnels.length;
    expect((await send(agent)).data).toEqual({ tests: [] });
    expect(tunnels.length).toBe(before);
    await agent.close();
  });

  it('the built CLI reads HTTP_PROXY and NO_PROXY from its environment', async () => {
    const env = {
      ASSESS_BASE_URL: target.url,
      ASSESS_API_KEY: 'sk_proxy_test_123456',
      HTTP_PROXY: proxyUrl,
      NO_PROXY: '',
    };
    const before = tunnels.length;
    const via = await runAssess(['api', 'GET', '/v3/tests'], { env });
    expect(via.code).toBe(0);
    expect(tunnels.length).toBe(before + 1);
    const direct = await runAssess(['api', 'GET', '/v3/tests'], { env: { ...env, NO_PROXY: '127.0.0.1' } });
    expect(direct.code).toBe(0);
    expect(tunnels.length).toBe(before + 1);
  });

  it("a run's proxies are its Context's environment, not the process's", async () => {
    const env = { ASSESS_BASE_URL: target.url, ASSESS_API_KEY: 'sk_proxy_test_123456', NO_PROXY: '' };
    const before = tunnels.length;
    expect((await runInProcess(['api', 'GET', '/v3/tests'], { env: { ...env, HTTP_PROXY: proxyUrl } })).code).toBe(0);
    expect(tunnels.length).toBe(before + 1);
    const saved = process.env.HTTP_PROXY;
    process.env.HTTP_PROXY = proxyUrl;
    try {
      expect((await runInProcess(['api', 'GET', '/v3/tests'], { env })).code).toBe(0);
    } finally {
      if (saved === undefined) delete process.env.HTTP_PROXY;
      else process.env.HTTP_PROXY = saved;
    }
    expect(tunnels.length).toBe(before + 1);
  });
});
