// A failure is described as what it is. A link creation the service may
// have carried out is not "retry later" (that makes a second link); an error on this machine
// (no code: `WebAssembly is not defined` under --jitless) is neither retried nor a network error.
import type { Dispatcher } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { Transport } from '../../src/api/transport.js';
import { describeError, exitCodeFor } from '../../src/cli/exit-codes.js';
import { LocalError } from '../../src/errors.js';
import { runInProcess } from '../helpers/in-process.js';
import { json, startServer } from '../helpers/http-server.js';

const KEY = 'sk_honest_failures_0123456789';
let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

describe('a link creation that failed after it may have reached the service', () => {
  const create = ['links', 'create', '1001', '--name', 'Campus', '--valid-days', '7', '--tz', '1'];

  it('a 502 is not retried, and the advice is to check `links list`, not to retry', async () => {
    const s = await startServer((_r, res) => json(res, 502, { errors: ['bad gateway'] }));
    close = s.close;
    const r = await runInProcess(create, { env: { ASSESS_BASE_URL: s.url, ASSESS_API_KEY: KEY } });
    expect(r.code).toBe(1);
    expect(s.requests.filter((q) => q.method === 'POST')).toHaveLength(1);
    expect(r.stderr).not.toMatch(/retry later/);
    expect(r.stderr).toMatch(/may have created the link anyway.*assess links list 1001/);
  });

  it('a connection reset after sending: the same advice', async () => {
    const s = await startServer((_r, res) => res.socket?.destroy());
    close = s.close;
    const r = await runInProcess(create, { env: { ASSESS_BASE_URL: s.url, ASSESS_API_KEY: KEY } });
    expect(r.code).toBe(6);
    expect(s.requests.filter((q) => q.method === 'POST')).toHaveLength(1);
    expect(r.stderr).not.toMatch(/retry later|check the base URL/);
    expect(r.stderr).toMatch(/assess links list 1001/);
  });

  it('other failures keep their advice (a GET that failed: retry later)', async () => {
    const s = await startServer((_r, res) => json(res, 503, { errors: ['busy'] }));
    close = s.close;
    const r = await runInProcess(['links', 'list', '1001', '--timeout', '1'], {
      env: { ASSESS_BASE_URL: s.url, ASSESS_API_KEY: KEY },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/retry later/);
  });
});

describe('an error on this machine is not a network error', () => {
  it('a request that throws without a code is tried once, exit 1, not "network error"', async () => {
    let calls = 0;
    const dispatcher = {
      request: () => {
        calls++;
        throw new ReferenceError('WebAssembly is not defined');
      },
    } as unknown as Dispatcher;
    const t = new Transport({
      baseUrl: 'http://127.0.0.1:9',
      apiKey: KEY,
      authHeader: 'X-API-KEY',
      dispatcher,
      sleep: async () => undefined,
    });
    const err = await t
      .json({ operation: 't', method: 'GET', path: '/v3/tests', repeat: 'read' })
      .catch((e: unknown) => e);
    expect(calls).toBe(1);
    expect(err).toBeInstanceOf(LocalError);
    expect(exitCodeFor(err)).toBe(1);
    const { message, hint } = describeError(err);
    expect(message).toMatch(/WebAssembly is not defined/);
    expect(`${message} ${hint}`).not.toMatch(/failed \(network error\)|check the base URL/);
  });

  it('a network failure with a code is still retried as one', async () => {
    let calls = 0;
    const dispatcher = {
      request: () => {
        calls++;
        throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
      },
    } as unknown as Dispatcher;
    const t = new Transport({
      baseUrl: 'http://127.0.0.1:9',
      apiKey: KEY,
      authHeader: 'X-API-KEY',
      dispatcher,
      sleep: async () => undefined,
    });
    const err = await t
      .json({ operation: 't', method: 'GET', path: '/v3/tests', repeat: 'read' })
      .catch((e: unknown) => e);
    expect(calls).toBe(4);
    expect(exitCodeFor(err)).toBe(6);
  });
});
