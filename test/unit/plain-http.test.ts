// Which base URLs would carry the API key in clear text across the network.
import { describe, expect, it } from 'vitest';
import { isLoopbackHost, isPlainHttpRemote, refusePlainHttp } from '../../src/config/base-url.js';
import { Transport } from '../../src/api/transport.js';
import type { Socket } from 'node:net';
import type { buildConnector } from 'undici';
import { loopbackChecked } from '../../src/api/keep-alive.js';
import { UsageError } from '../../src/errors.js';

describe('plain HTTP to another machine', () => {
  it('loopback is 127.0.0.0/8, ::1 (also IPv4-mapped) and localhost exactly', () => {
    for (const h of [
      'localhost',
      'LOCALHOST',
      '127.0.0.1',
      '127.1.2.3',
      '[::1]',
      '::1',
      '[::ffff:7f00:1]',
      '::ffff:127.0.0.1',
    ])
      expect(isLoopbackHost(h), h).toBe(true);
    for (const h of [
      '10.1.2.3',
      '128.0.0.1',
      '0.0.0.0',
      '[::]',
      'localhost.example.com',
      // a fully qualified name: glibc asks DNS for it, and another machine may answer
      'localhost.',
      'LOCALHOST.',
      'x.localhost',
      '127.0.0.1.',
      'api.example.invalid',
      '127.0.0.1.nip.io',
      '[::ffff:a01:203]',
    ])
      expect(isLoopbackHost(h), h).toBe(false);
  });

  it('http://localhost.:PORT needs the opt-in like any other name', () => {
    expect(isPlainHttpRemote('http://localhost.:4010')).toBe(true);
    expect(() => refusePlainHttp('http://localhost.:4010', 'ASSESS_BASE_URL', false)).toThrow(/plain HTTP to another/);
    expect(isPlainHttpRemote('http://localhost:4010')).toBe(false);
  });

  it('only http:// to a host that is not loopback needs the opt-in', () => {
    expect(isPlainHttpRemote('http://api.example.invalid')).toBe(true);
    expect(isPlainHttpRemote('http://10.1.2.3:8080/base')).toBe(true);
    expect(isPlainHttpRemote('HTTP://user:pw@api.example.invalid')).toBe(true);
    expect(isPlainHttpRemote('https://api.example.invalid')).toBe(false);
    expect(isPlainHttpRemote('http://127.0.0.1:4010')).toBe(false);
    expect(isPlainHttpRemote('http://[::1]:4010')).toBe(false);
    expect(() => refusePlainHttp('http://api.example.invalid', 'ASSESS_BASE_URL', false)).toThrow(UsageError);
    expect(() => refusePlainHttp('http://api.example.invalid', 'ASSESS_BASE_URL', true)).not.toThrow();
  });

  it('the message masks a password in the URL', () => {
    const err = (() => {
      try {
        refusePlainHttp('http://bob:hunter2pass@api.example.invalid', 'ASSESS_BASE_URL', false);
      } catch (e) {
        return e as Error;
      }
    })();
    expect(err?.message).toMatch(/^ASSESS_BASE_URL: http:\/\/\*+@api\.example\.invalid is plain HTTP/);
    expect(err?.message).not.toContain('hunter2pass');
  });

  it('the transport itself refuses such a base URL unless allowed', () => {
    const opts = { baseUrl: 'http://api.example.invalid', apiKey: 'sk_unit_plain_http_0123', authHeader: 'X-API-KEY' };
    expect(() => new Transport(opts)).toThrow(/plain HTTP to another machine/);
    expect(() => new Transport({ ...opts, insecureHttp: true })).not.toThrow();
    expect(() => new Transport({ ...opts, baseUrl: 'http://127.0.0.1:9' })).not.toThrow();
  });
});

describe('localhost is checked where it is connected to', () => {
  /** A connector that "connects" to `remote`, as undici's would, for a socket to check. */
  const connectingTo = (remote: string) => {
    const socket = { remoteAddress: remote, destroyed: false, destroy: () => void (socket.destroyed = true) };
    const connect: buildConnector.connector = (_o, cb) => cb(null, socket as unknown as Socket);
    return { socket, connect: loopbackChecked(connect) };
  };
  const open = (c: buildConnector.connector, url: string) =>
    new Promise<Error | null>((resolve) => {
      const u = new URL(url);
      c({ hostname: u.hostname, protocol: u.protocol, port: u.port }, (...args) => resolve(args[0]));
    });

  it('http://localhost that resolved to another machine is refused before anything is sent (exit 2)', async () => {
    const { socket, connect } = connectingTo('10.9.8.7');
    const err = await open(connect, 'http://localhost:4010');
    expect(err).toBeInstanceOf(UsageError);
    expect(err?.message).toMatch(/localhost resolved to 10\.9\.8\.7, which is not this machine/);
    expect(socket.destroyed).toBe(true);
  });

  it('loopback addresses pass, and so does anything that is not plain http to localhost', async () => {
    for (const at of ['127.0.0.1', '127.5.6.7', '::1', '::ffff:127.0.0.1'])
      expect(await open(connectingTo(at).connect, 'http://localhost:4010'), at).toBeNull();
    expect(await open(connectingTo('10.9.8.7').connect, 'https://localhost:4010')).toBeNull();
    expect(await open(connectingTo('10.9.8.7').connect, 'http://api.example.invalid')).toBeNull();
  });
});
