// A request the caller says e-mails a candidate (`emails`, with sendEmail "yes") is not
// repeated after it may have reached the service (a reset after the request was sent, a 502); the
// same request without an e-mail is. A 429 did nothing (refused on arrival): repeated either way,
// as is a write that is never safe to repeat (links create).
import { describe, expect, it } from 'vitest';
import { Transport } from '../../src/api/transport.js';
import { ApiError, NetworkError } from '../../src/api/errors.js';
import { json, startServer } from '../helpers/http-server.js';

const noSleep = async () => undefined;

describe('retries of requests that send e-mail', () => {
  type Handler = Parameters<typeof startServer>[0];
  // the request arrived; no answer at all
  const reset: Handler = (_r, res) => res.socket?.destroy();
  // the answer broke off after its headers: the invitation was made, and e-mailed
  const cutMidBody: Handler = (_r, res) => {
    res.writeHead(201, { 'content-type': 'application/json', 'content-length': '100' });
    res.write('{"testInvitationId":', () => res.socket?.destroy()); // headers and part of the body out first
  };

  it.each([
    ['after a reset', 'yes', 1, reset],
    ['after a reset', 'no', 3, reset],
    ['whose answer breaks off mid-body', 'yes', 1, cutMidBody],
    ['whose answer breaks off mid-body', 'no', 3, cutMidBody],
  ])('%s, sendEmail %s: %i request(s)', async (_what, sendEmail, expected, handler) => {
    const s = await startServer(handler);
    try {
      const t = new Transport({
        baseUrl: s.url,
        apiKey: 'k'.repeat(32),
        authHeader: 'X-API-KEY',
        sleep: noSleep,
        maxAttempts: 3,
      });
      const err = await t
        .json({
          operation: 'v3.invite',
          method: 'POST',
          path: '/v3/tests/1/invite',
          body: { email: 'a@b.example', name: 'A', sendEmail },
          repeat: 'idempotent',
          emails: sendEmail === 'yes',
        })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(NetworkError);
      expect(s.requests).toHaveLength(expected);
    } finally {
      await s.close();
    }
  });

  const invite = (sendEmail: string) =>
    ({
      operation: 'v3.invite',
      method: 'POST',
      path: '/v3/tests/1/invite',
      body: { email: 'a@b.example', name: 'A', sendEmail },
      repeat: 'idempotent',
      emails: sendEmail === 'yes',
    }) as const;
  const createLink = {
    operation: 'v3.createLink',
    method: 'POST',
    path: '/v3/tests/1/testlinks',
    body: { testId: 1 },
    repeat: 'once',
  } as const;

  it.each([
    ['an e-mailing invite', invite('yes')],
    ['an invite without e-mail', invite('no')],
    ['a links create', createLink],
  ])('%s answered 429 twice (no Retry-After) is sent again, and succeeds on the third try', async (_what, spec) => {
    const s = await startServer((_r, res, n) =>
      n <= 2
        ? json(res, 429, { message: 'Too many requests' })
        : json(res, 201, { testInvitationId: 7, testLinkId: 7 }),
    );
    try {
      const t = new Transport({
        baseUrl: s.url,
        apiKey: 'k'.repeat(32),
        authHeader: 'X-API-KEY',
        sleep: noSleep,
        maxAttempts: 4,
      });
      const r = await t.json(spec);
      expect(r.status).toBe(201);
      expect(s.requests).toHaveLength(3);
    } finally {
      await s.close();
    }
  });

  it('an e-mailing invite still answered 429 after every attempt: one request per attempt, never marked as maybe applied', async () => {
    const s = await startServer((_r, res) => json(res, 429, { message: 'Too many requests' }));
    try {
      const t = new Transport({
        baseUrl: s.url,
        apiKey: 'k'.repeat(32),
        authHeader: 'X-API-KEY',
        sleep: noSleep,
        maxAttempts: 3,
      });
      const err = await t.json(invite('yes')).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).status).toBe(429);
      expect((err as ApiError).attempts).toBe(3);
      expect((err as ApiError).maybeApplied).toBe(false);
      expect(s.requests).toHaveLength(3);
    } finally {
      await s.close();
    }
  });

  it.each([
    ['yes', 1],
    ['no', 3],
  ])('sendEmail %s answered 502 (the service may have acted): %i request(s)', async (sendEmail, expected) => {
    const s = await startServer((_r, res) => json(res, 502, { errors: ['Bad gateway'] }));
    try {
      const t = new Transport({
        baseUrl: s.url,
        apiKey: 'k'.repeat(32),
        authHeader: 'X-API-KEY',
        sleep: noSleep,
        maxAttempts: 3,
      });
      const err = await t.json(invite(sendEmail)).catch((e: unknown) => e);
      expect((err as ApiError).status).toBe(502);
      expect(s.requests).toHaveLength(expected);
    } finally {
      await s.close();
    }
  });
});
