import { describe, expect, it } from 'vitest';
import {
  BackoffGate,
  nothingProcessed,
  parseRetryAfter,
  retryDelayMs,
  shouldRetry,
  wasSent,
} from '../../src/api/retry.js';

const policy = (idempotent: boolean, attempt = 1, maxAttempts = 4) => ({ idempotent, attempt, maxAttempts });

describe('retry policy', () => {
  it.each([429, 502, 503, 504])('retries status %i for requests safe to repeat', (status) => {
    expect(shouldRetry({ kind: 'status', status }, policy(true))).toBe(true);
  });

  it.each([400, 401, 403, 404, 500, 501])('does not retry status %i', (status) => {
    expect(shouldRetry({ kind: 'status', status }, policy(true))).toBe(false);
  });

  it('retries a 500 for a read (GET) only: a write answered 500 is not repeated', () => {
    expect(shouldRetry({ kind: 'status', status: 500 }, { ...policy(true), read: true })).toBe(true);
    expect(shouldRetry({ kind: 'status', status: 500 }, { ...policy(true), read: false })).toBe(false);
    expect(shouldRetry({ kind: 'status', status: 500 }, { ...policy(false), read: false })).toBe(false);
    expect(shouldRetry({ kind: 'status', status: 501 }, { ...policy(true), read: true })).toBe(false);
    expect(shouldRetry({ kind: 'status', status: 500 }, { ...policy(true, 4, 4), read: true })).toBe(false);
  });

  it('retries a 500 for a write whose repeat returns the result of the first try (reattempt), when safe to repeat', () => {
    expect(shouldRetry({ kind: 'status', status: 500 }, { ...policy(true), sameOnRepeat: true })).toBe(true);
    // not safe to repeat (it e-mails the candidate): the flag does not override that
    expect(shouldRetry({ kind: 'status', status: 500 }, { ...policy(false), sameOnRepeat: true })).toBe(false);
    expect(shouldRetry({ kind: 'status', status: 500 }, { ...policy(true, 4, 4), sameOnRepeat: true })).toBe(false);
  });

  it.each([502, 503, 504])('never retries status %i for create/update (the server may have acted)', (status) => {
    expect(shouldRetry({ kind: 'status', status }, policy(false))).toBe(false);
  });

  it('retries a 429 for create/update and e-mailing requests too: it was refused on arrival, nothing was done', () => {
    expect(nothingProcessed({ kind: 'status', status: 429 })).toBe(true);
    expect(shouldRetry({ kind: 'status', status: 429 }, policy(false))).toBe(true);
    expect(shouldRetry({ kind: 'status', status: 429 }, policy(false, 4, 4))).toBe(false); // still within the attempts
    for (const status of [500, 502, 503, 504])
      expect(nothingProcessed({ kind: 'status', status }), String(status)).toBe(false);
    expect(nothingProcessed({ kind: 'error', code: 'ECONNREFUSED', sent: false })).toBe(true);
    expect(nothingProcessed({ kind: 'error', code: 'ECONNRESET', sent: true })).toBe(false);
  });

  it('retries a connection reset only for requests safe to repeat', () => {
    const reset = { kind: 'error' as const, code: 'ECONNRESET', sent: wasSent('ECONNRESET') };
    expect(shouldRetry(reset, policy(true))).toBe(true);
    expect(shouldRetry(reset, policy(false))).toBe(false);
  });

  it('retries create/update when the connection failed before sending', () => {
    const refused = { kind: 'error' as const, code: 'ECONNREFUSED', sent: wasSent('ECONNREFUSED') };
    expect(refused.sent).toBe(false);
    expect(shouldRetry(refused, policy(false))).toBe(true);
  });

  it('stops at the attempt cap', () => {
    expect(shouldRetry({ kind: 'status', status: 503 }, policy(true, 3, 4))).toBe(true);
    expect(shouldRetry({ kind: 'status', status: 503 }, policy(true, 4, 4))).toBe(false);
    expect(shouldRetry({ kind: 'error', code: 'ECONNREFUSED', sent: false }, policy(false, 4, 4))).toBe(false);
  });

  it('honours Retry-After in seconds and as an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('garbage', now)).toBeUndefined();
    expect(retryDelayMs(1, '2', now)).toBe(2000);
  });

  it('an invalid or negative Retry-After is absent: the normal backoff, never none (issue 31)', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    const hi = () => 1;
    for (const bad of ['-5', '-0.5', '2026-01-01', '1e3', '  -5 ', 'Thu', '12:00']) {
      expect(parseRetryAfter(bad, now), bad).toBeUndefined();
      expect(retryDelayMs(1, bad, now, hi), bad).toBe(250);
    }
    expect(parseRetryAfter('Thursday, 01-Jan-26 00:00:07 GMT', now)).toBe(7000);
    expect(parseRetryAfter('Thu Jan  1 00:00:09 2026', now)).toBe(9000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:59:00 GMT', now)).toBe(0); // a date passed: at once
  });

  it('backs off exponentially with jitter inside the ceiling', () => {
    const lo = () => 0;
    const hi = () => 1;
    expect(retryDelayMs(1, null, 0, lo)).toBe(125);
    expect(retryDelayMs(1, null, 0, hi)).toBe(250);
    expect(retryDelayMs(3, null, 0, hi)).toBe(1000);
    expect(retryDelayMs(20, null, 0, hi)).toBe(20_000);
  });

  it('a shared gate holds every request back until Retry-After has passed', () => {
    let t = 1000;
    const gate = new BackoffGate(() => t);
    expect(gate.waitMs()).toBe(0);
    gate.hold(500);
    gate.hold(200); // a shorter hold never shortens a longer one
    expect(gate.waitMs()).toBe(500);
    t = 1400;
    expect(gate.waitMs()).toBe(100);
  });
});
