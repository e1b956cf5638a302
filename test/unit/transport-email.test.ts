// Issue 15 item 12: a request that makes the service e-mail a candidate (sendEmail "yes") is not
// repeated after it may have reached the service (a reset after the request was sent); the same
// request without an e-mail is.
import { describe, expect, it } from 'vitest';
import { Transport } from '../../src/api/transport.js';
import { NetworkError } from '../../src/api/errors.js';
import { startServer } from '../helpers/http-server.js';

const noSleep = async () => undefined;

describe('retries of requests that send e-mail', () => {
  it.each([
    ['yes', 1],
    ['no', 3],
  ])('sendEmail %s after a reset: %i request(s)', async (sendEmail, expected) => {
    const s = await startServer((_r, res) => res.socket?.destroy()); // the request arrived; no answer
    try {
      const t = new Transport({ baseUrl: s.url, apiKey: 'k'.repeat(32), authHeader: 'X-API-KEY', sleep: noSleep, maxAttempts: 3 });
      const err = await t
        .json({ operation: 'v3.invite', method: 'POST', path: '/v3/tests/1/invite', body: { email: 'a@b.example', name: 'A', sendEmail }, idempotent: true })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(NetworkError);
      expect(s.requests).toHaveLength(expected);
    } finally {
      await s.close();
    }
  });
});
