// The one retry policy, `decide(outcome, attempt, operation)`, as a table: for each outcome of a
// try and each repeat class (with the caller's `emails`, the pace, the attempt count and the
// command's --timeout), whether it is tried again, and what it says about the service.
import { describe, expect, it } from 'vitest';
import {
  BackoffGate,
  decide,
  nothingProcessed,
  parseRetryAfter,
  PACED_429_RETRIES,
  type Outcome,
  type RetryOperation,
} from '../../src/api/retry.js';

const status = (s: number, retryAfterMs?: number): Outcome => ({ kind: 'status', status: s, retryAfterMs });
const error = (code: string | undefined): Outcome => ({ kind: 'error', code });
const cut: Outcome = { kind: 'cut', code: 'UND_ERR_SOCKET' };

const read: RetryOperation = { repeat: 'read', maxAttempts: 4 };
const idem: RetryOperation = { repeat: 'idempotent', maxAttempts: 4 };
const same: RetryOperation = { repeat: 'same-on-repeat', maxAttempts: 4 };
const once: RetryOperation = { repeat: 'once', maxAttempts: 4 };
const mailing: RetryOperation = { ...idem, emails: true };
const mailingSame: RetryOperation = { ...same, emails: true };
const delivery: RetryOperation = { repeat: 'delivery', maxAttempts: 6 };

const again = (o: Outcome, op: RetryOperation, n = 1) => decide(o, { n }, op, () => 0.5).again;

describe('decide: what is tried again, by repeat class', () => {
  // outcome                          read   idem   same   once   mailing mailingSame delivery
  const TABLE: Array<[string, Outcome, boolean[]]> = [
    ['429 (refused on arrival)', status(429), [true, true, true, true, true, true, true]],
    ['500', status(500), [true, false, true, false, false, false, true]],
    ['501', status(501), [false, false, false, false, false, false, true]],
    ['502', status(502), [true, true, true, false, false, false, true]],
    ['503', status(503), [true, true, true, false, false, false, true]],
    ['504', status(504), [true, true, true, false, false, false, true]],
    ['508 (a forwarding loop)', status(508), [false, false, false, false, false, false, false]],
    ['408', status(408), [false, false, false, false, false, false, true]],
    ['400', status(400), [false, false, false, false, false, false, false]],
    ['404', status(404), [false, false, false, false, false, false, false]],
    ['ECONNREFUSED (never sent)', error('ECONNREFUSED'), [true, true, true, true, true, true, true]],
    [
      'UND_ERR_CONNECT_TIMEOUT (never sent)',
      error('UND_ERR_CONNECT_TIMEOUT'),
      [true, true, true, true, true, true, true],
    ],
    ['ECONNRESET (maybe sent)', error('ECONNRESET'), [true, true, true, false, false, false, true]],
    ['a headers timeout (maybe sent)', error('UND_ERR_HEADERS_TIMEOUT'), [true, true, true, false, false, false, true]],
    ['an unknown failure', error(undefined), [true, true, true, false, false, false, true]],
    ['an unrecognised code', error('ERR_SOMETHING'), [false, false, false, false, false, false, true]],
    ['an answer cut off after its headers', cut, [true, true, true, false, false, false, true]],
  ];
  const OPS = [read, idem, same, once, mailing, mailingSame, delivery];

  it.each(TABLE)('%s', (_name, outcome, expected) => {
    expect(OPS.map((op) => again(outcome, op))).toEqual(expected);
  });

  it('a read that is e-mailing (no such operation) stays a read', () => {
    expect(again(status(500), { ...read, emails: true })).toBe(true);
  });

  it('stops at the attempt cap, whatever the outcome', () => {
    expect(again(status(503), idem, 3)).toBe(true);
    expect(again(status(503), idem, 4)).toBe(false);
    expect(again(status(429), once, 4)).toBe(false);
    expect(again(error('ECONNREFUSED'), once, 4)).toBe(false);
    expect(again(error('ECONNRESET'), delivery, 6)).toBe(false);
  });

  it('does not begin a wait the command has no time left for (--timeout)', () => {
    expect(decide(status(503), { n: 1, leftMs: 10_000 }, idem, () => 1).again).toBe(true);
    expect(decide(status(503), { n: 1, leftMs: 250 }, idem, () => 1).again).toBe(false); // the wait is 250 ms
    expect(decide(status(429, 7000), { n: 1, leftMs: 5000 }, once).again).toBe(false);
  });
});

describe('decide: what the outcome says about the service', () => {
  it.each([
    ['a 429', status(429), false],
    ['a 400', status(400), false],
    ['a 500', status(500), true],
    ['a 502 (a proxy: the service may have acted)', status(502), true],
    ['a connection refused', error('ECONNREFUSED'), false],
    ['a reset', error('ECONNRESET'), true],
    ['a cut answer', cut, true],
  ])('%s: maybe applied %s', (_name, outcome, expected) => {
    expect(decide(outcome, { n: 1 }, idem).maybeApplied).toBe(expected);
  });

  it('only a 429 or a request that never left proves nothing was done', () => {
    expect(nothingProcessed(status(429))).toBe(true);
    for (const s of [500, 502, 503, 504]) expect(nothingProcessed(status(s)), String(s)).toBe(false);
    expect(nothingProcessed(error('ECONNREFUSED'))).toBe(true);
    expect(nothingProcessed(error('ECONNRESET'))).toBe(false);
    expect(nothingProcessed(cut)).toBe(false);
  });
});

describe('decide: waits', () => {
  it('backs off exponentially with equal jitter, inside the ceiling', () => {
    const wait = (n: number, r: number) => decide(status(503), { n }, { ...idem, maxAttempts: 99 }, () => r).delayMs;
    expect(wait(1, 0)).toBe(125);
    expect(wait(1, 1)).toBe(250);
    expect(wait(3, 1)).toBe(1000);
    expect(wait(20, 1)).toBe(20_000);
  });

  it('waits a Retry-After (at most 120 s) and holds every request of the client for a 429', () => {
    const d = decide(status(429, 7000), { n: 1 }, idem);
    expect(d).toMatchObject({ again: true, delayMs: 7000, holdAll: true, free: false });
    expect(decide(status(429, 3_600_000), { n: 1 }, idem).delayMs).toBe(120_000);
    expect(decide(status(503, 2000), { n: 1 }, idem)).toMatchObject({ delayMs: 2000, holdAll: false });
  });

  it('a paced 429 (no Retry-After) takes the pace’s next slot and uses up no try, up to a bound', () => {
    const paced = { ...once, paced: true };
    expect(decide(status(429), { n: 4, throttled: 0 }, paced)).toMatchObject({
      again: true,
      delayMs: 0,
      free: true,
      holdAll: false,
    });
    expect(decide(status(429), { n: 4, throttled: PACED_429_RETRIES }, paced).again).toBe(false);
    expect(decide(status(429), { n: 1, throttled: PACED_429_RETRIES }, paced)).toMatchObject({
      again: true,
      free: false,
    });
    // a Retry-After is the service pacing the client: waited for, and it counts
    expect(decide(status(429, 1000), { n: 1 }, paced)).toMatchObject({ delayMs: 1000, free: false, holdAll: true });
  });

  it('a delivery backs off from its own base to its own cap, and waits a Retry-After up to the cap', () => {
    const op = { ...delivery, backoff: { baseMs: 500, capMs: 30_000, retryAfterCapMs: 30_000 } };
    expect(decide(status(503), { n: 1 }, op, () => 1).delayMs).toBe(500);
    expect(decide(status(503), { n: 5 }, op, () => 1).delayMs).toBe(8000);
    expect(decide(status(429, 60_000), { n: 1 }, op).delayMs).toBe(30_000);
  });
});

describe('Retry-After', () => {
  it('is delta-seconds or an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Thursday, 01-Jan-26 00:00:07 GMT', now)).toBe(7000);
    expect(parseRetryAfter('Thu Jan  1 00:00:09 2026', now)).toBe(9000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:59:00 GMT', now)).toBe(0); // a date passed: at once
  });

  it('an invalid or negative one is absent: the normal backoff, never none', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    for (const bad of ['-5', '-0.5', '2026-01-01', '1e3', '  -5 ', 'Thu', '12:00', 'garbage']) {
      expect(parseRetryAfter(bad, now), bad).toBeUndefined();
      const retryAfterMs = parseRetryAfter(bad, now);
      expect(decide(status(503, retryAfterMs), { n: 1 }, idem, () => 1).delayMs, bad).toBe(250);
    }
  });
});

describe('BackoffGate', () => {
  it('holds every request back until Retry-After has passed', () => {
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
