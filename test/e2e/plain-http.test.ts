// The API key never goes over plain http:// to a host that is not this machine
// unless the user opted in (--insecure-http, ASSESS_INSECURE_HTTP=1, or the profile's
// insecure-http setting). Watched through a recording HTTP proxy on 127.0.0.1 with targets that
// resolve nowhere (api.example.invalid) or are never reached (10.1.2.3): whatever the CLI would
// send is seen by the proxy, which answers itself and never connects onward.
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runAssess, tempDir } from '../helpers/cli.js';

const KEY = 'sk_plain_http_key_0123456789';
let proxy: Server;
let proxyUrl = '';
/** Everything the proxy received: request lines, headers, tunnelled bytes. */
let seen: string[] = [];
const ANSWER =
  'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 13\r\nconnection: close\r\n\r\n{"tests":[]}\n';

beforeAll(async () => {
  proxy = createServer((req, res) => {
    // absolute-form request (no tunnel)
    seen.push(`${req.method} ${req.url}\n${JSON.stringify(req.headers)}`);
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"tests":[]}\n');
  });
  proxy.on('connect', (req, client: Socket) => {
    // a tunnel: accepted, and what comes through it is recorded and answered here
    seen.push(`CONNECT ${req.url}`);
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    let buf = '';
    client.on('data', (d: Buffer) => {
      buf += d.toString('latin1');
      if (buf.includes('\r\n\r\n')) {
        seen.push(buf);
        client.end(ANSWER);
      }
    });
    client.on('error', () => undefined);
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  proxy.closeAllConnections();
  await new Promise<void>((r) => proxy.close(() => r()));
});
beforeEach(() => {
  seen = [];
});

const viaProxy = (extra: Record<string, string> = {}) => ({
  HTTP_PROXY: proxyUrl,
  http_proxy: proxyUrl,
  NO_PROXY: '',
  no_proxy: '',
  ASSESS_API_KEY: KEY,
  ...extra,
});
const keySeen = () => seen.some((s) => s.includes(KEY));
const errorLines = (stderr: string) => stderr.split('\n').filter(Boolean);

describe('ASSESS_BASE_URL=http://… to another machine', () => {
  for (const base of ['http://api.example.invalid', 'http://10.1.2.3:8080']) {
    it(`${base}: exit 2, one line with the fix, nothing reaches the proxy`, async () => {
      const r = await runAssess(['api', 'GET', '/v3/tests'], { env: viaProxy({ ASSESS_BASE_URL: base }) });
      expect(r.code).toBe(2);
      expect(errorLines(r.stderr)).toHaveLength(1);
      expect(r.stderr).toMatch(
        new RegExp(
          `^error: ASSESS_BASE_URL: ${base.replace(/\./g, '\\.')} is plain HTTP to another machine: the API key ` +
            `would cross the network unencrypted; use https://.*--insecure-http`,
        ),
      );
      expect(seen).toEqual([]);
    });
  }

  it('ASSESS_BASE_URL_V2=http://… is refused too (the v2 key header)', async () => {
    const r = await runAssess(['tests', 'list', '--api', 'v2'], {
      env: viaProxy({
        ASSESS_BASE_URL: 'https://api.example.invalid',
        ASSESS_BASE_URL_V2: 'http://api.example.invalid',
      }),
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^error: ASSESS_BASE_URL_V2: http:\/\/api\.example\.invalid is plain HTTP to another machine/m,
    );
    expect(seen).toEqual([]);
  });

  it('--insecure-http (or ASSESS_INSECURE_HTTP=1) sends it: the proxy sees the key (what the refusal prevents)', async () => {
    const a = await runAssess(['api', 'GET', '/v3/tests', '--insecure-http'], {
      env: viaProxy({ ASSESS_BASE_URL: 'http://api.example.invalid' }),
    });
    expect(a.code).toBe(0);
    expect(seen.join('\n')).toMatch(/api\.example\.invalid/);
    expect(keySeen()).toBe(true);
    seen = [];
    const b = await runAssess(['api', 'GET', '/v3/tests'], {
      env: viaProxy({ ASSESS_BASE_URL: 'http://api.example.invalid', ASSESS_INSECURE_HTTP: '1' }),
    });
    expect(b.code).toBe(0);
    expect(keySeen()).toBe(true);
  });

  it('loopback stays allowed without opting in (the sandbox): localhost, 127.0.0.1, 127.0.0.2', async () => {
    const servers = await Promise.all(['127.0.0.1', '127.0.0.2'].map((host) => answering(host)));
    try {
      for (const base of [
        `http://localhost:${servers[0]!.port}`,
        `http://127.0.0.1:${servers[0]!.port}`,
        `http://127.0.0.2:${servers[1]!.port}`,
      ]) {
        const r = await runAssess(['api', 'GET', '/v3/tests'], { env: { ASSESS_API_KEY: KEY, ASSESS_BASE_URL: base } });
        expect(r.stderr, base).toBe('');
        expect(r.code, base).toBe(0);
      }
      expect(servers.map((x) => x.keys)).toEqual([[KEY, KEY], [KEY]]);
    } finally {
      for (const x of servers) x.server.close();
    }
  });
});

/** A loopback server answering `{"tests":[]}`, recording the key of each request. */
async function answering(host: string): Promise<{ server: Server; port: number; keys: string[] }> {
  const keys: string[] = [];
  const server = createServer((req, res) => {
    keys.push(String(req.headers['x-api-key']));
    res.writeHead(200, { 'content-type': 'application/json', connection: 'close' }).end('{"tests":[]}');
  });
  await new Promise<void>((r) => server.listen(0, host, r));
  return { server, port: (server.address() as AddressInfo).port, keys };
}

describe('auth login and config set with an http:// URL to another machine', () => {
  it('auth login --base-url http://…: exit 2, one line, nothing stored or sent; with --insecure-http stored with the opt-in', async () => {
    const cfg = tempDir();
    try {
      const r = await runAssess(['auth', 'login', '--base-url', 'http://api.example.invalid', '--key-stdin'], {
        configDir: cfg.dir,
        stdin: KEY,
        env: viaProxy({ ASSESS_API_KEY: '' }),
      });
      expect(r.code).toBe(2);
      expect(errorLines(r.stderr)).toHaveLength(1);
      expect(r.stderr).toMatch(
        /^error: --base-url: http:\/\/api\.example\.invalid is plain HTTP to another machine.*--insecure-http/,
      );
      expect(seen).toEqual([]);
      expect(() => readFileSync(join(cfg.dir, 'config.json'))).toThrow(/ENOENT/);

      const ok = await runAssess(
        ['auth', 'login', '--base-url', 'http://api.example.invalid', '--key-stdin', '--insecure-http'],
        {
          configDir: cfg.dir,
          stdin: KEY,
          env: viaProxy({ ASSESS_API_KEY: '' }),
        },
      );
      expect(ok.code).toBe(0);
      expect(ok.stderr).toMatch(/now sends the API key over plain HTTP \(insecure-http true\)/);
      expect(JSON.parse(readFileSync(join(cfg.dir, 'config.json'), 'utf8')).profiles.default).toMatchObject({
        baseUrl: 'http://api.example.invalid',
        insecureHttp: true,
      });
      // the profile's opt-in holds for later commands, without the flag
      seen = [];
      const later = await runAssess(['api', 'GET', '/v3/tests'], {
        configDir: cfg.dir,
        env: viaProxy({ ASSESS_API_KEY: '' }),
      });
      expect(later.code).toBe(0);
      expect(keySeen()).toBe(true);
    } finally {
      cfg.cleanup();
    }
  });

  it('config set base-url http://…: exit 2, one line; https and loopback are fine; the stored URL is refused where it is used', async () => {
    const cfg = tempDir();
    try {
      const r = await runAssess(['config', 'set', 'base-url', 'http://api.example.invalid'], { configDir: cfg.dir });
      expect(r.code).toBe(2);
      expect(errorLines(r.stderr)).toHaveLength(1);
      expect(r.stderr).toMatch(
        /^error: config set base-url: http:\/\/api\.example\.invalid is plain HTTP to another machine.*assess config set insecure-http true/,
      );
      expect(
        (await runAssess(['config', 'set', 'base-url', 'https://api.example.invalid'], { configDir: cfg.dir })).code,
      ).toBe(0);
      expect(
        (await runAssess(['config', 'set', 'base-url', 'http://127.0.0.1:4010'], { configDir: cfg.dir })).code,
      ).toBe(0);
      // a config written before this check (or by hand) is refused when a command uses it
      const path = join(cfg.dir, 'config.json');
      writeFileSync(
        path,
        JSON.stringify({ profiles: { default: { baseUrl: 'http://api.example.invalid', apiKey: KEY } } }),
        { mode: 0o600 },
      );
      const used = await runAssess(['api', 'GET', '/v3/tests'], {
        configDir: cfg.dir,
        env: viaProxy({ ASSESS_API_KEY: '' }),
      });
      expect(used.code).toBe(2);
      expect(used.stderr).toMatch(
        /^error: config base-url \(profile 'default'\): http:\/\/api\.example\.invalid is plain HTTP to another machine/,
      );
      expect(seen).toEqual([]);
      // the opt-in as a setting
      expect((await runAssess(['config', 'set', 'insecure-http', 'true'], { configDir: cfg.dir })).code).toBe(0);
      const allowed = await runAssess(['api', 'GET', '/v3/tests'], {
        configDir: cfg.dir,
        env: viaProxy({ ASSESS_API_KEY: '' }),
      });
      expect(allowed.code).toBe(0);
      expect(keySeen()).toBe(true);
    } finally {
      cfg.cleanup();
    }
  });
});
