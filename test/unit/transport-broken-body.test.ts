// An answer that breaks off after its headers (connection cut mid-body): send() retries only
// until the headers arrive, so json() must send a request that is safe to repeat again, and
// turn the cut into a NetworkError (exit 6) otherwise — never an undici error ("looks like a bug").
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { NetworkError } from '../../src/api/errors.js';
import { keepAlivePool } from '../../src/api/keep-alive.js';
import { Transport } from '../../src/api/transport.js';
import { json, startServer } from '../helpers/http-server.js';

let close: (() => Promise<void>) | undefined;
/** The keep-alive pool a CLI run would give its clients, closed after each test. */
const pool = keepAlivePool({});
afterEach(async () => {
  await close?.();
  close = undefined;
  await pool.close();
});

const transport = (url: string) =>
  new Transport({
    baseUrl: url,
    apiKey: 'sk_test_0123456789abcdef',
    authHeader: 'X-API-KEY',
    sleep: async () => undefined,
    maxAttempts: 4,
    pool: pool.get,
  });
/** Headers and half a JSON body, then the socket is destroyed. */
function cutOff(res: ServerResponse) {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
  res.write('{"tests": [');
  setImmediate(() => res.socket?.destroy());
}

describe('transport: an answer cut off mid-body', () => {
  it('is sent again when safe to repeat, and the complete answer is returned', async () => {
    const s = await startServer((_r, res, n) => (n < 3 ? cutOff(res) : json(res, 200, { tests: [] })));
    close = s.close;
    const r = await transport(s.url).json({ operation: 't', method: 'GET', path: '/v3/tests', repeat: 'read' });
    expect(r.data).toEqual({ tests: [] });
    expect(s.requests).toHaveLength(3);
  });

  it('is a NetworkError after the attempt cap', async () => {
    const s = await startServer((_r, res) => cutOff(res));
    close = s.close;
    const err = await transport(s.url)
      .json({ operation: 't', method: 'GET', path: '/v3/tests', repeat: 'read' })
      .catch((e) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.message).toMatch(/GET .*\/v3\/tests: the answer broke off/);
    expect(s.requests).toHaveLength(4);
  });

  it('is not sent again for a create (the service may have acted): NetworkError at once', async () => {
    const s = await startServer((_r, res) => cutOff(res));
    close = s.close;
    await expect(
      transport(s.url).json({ operation: 't', method: 'POST', path: '/v3/x', body: {}, repeat: 'once' }),
    ).rejects.toBeInstanceOf(NetworkError);
    expect(s.requests).toHaveLength(1);
  });
});
