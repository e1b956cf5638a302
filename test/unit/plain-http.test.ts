// Issue 31 item 3: which base URLs would carry the API key in clear text across the network.
import { describe, expect, it } from 'vitest';
import { isLoopbackHost, isPlainHttpRemote, refusePlainHttp } from '../../src/config/base-url.js';
import { Transport } from '../../src/api/transport.js';
import { UsageError } from '../../src/errors.js';

describe('plain HTTP to another machine', () => {
  it('loopback is 127.0.0.0/8, ::1 (also IPv4-mapped) and localhost', () => {
    for (const h of [
      'localhost',
      'LOCALHOST',
      'localhost.',
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
      'api.example.invalid',
      '127.0.0.1.nip.io',
      '[::ffff:a01:203]',
    ])
      expect(isLoopbackHost(h), h).toBe(false);
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
