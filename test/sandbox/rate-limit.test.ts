// The sandbox's rate limit: the spec's grammar, the token bucket on an injected clock
// (burst, refill, one bucket per key), and over HTTP: a 429 before the route runs (nothing
// created), Retry-After only when the spec asks, the counters at /_sandbox/rate-limit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FaultSpecError } from '../../src/sandbox/fault-spec.js';
import { parseRateLimit, RateLimiter } from '../../src/sandbox/rate-limit.js';
import { harness, type Harness } from './helpers.js';

describe('rate limit spec', () => {
  it('reads a rate, a burst and retry-after; the burst defaults to one second of tokens', () => {
    expect(parseRateLimit('25/s')).toEqual({ perSecond: 25, burst: 25, retryAfter: false });
    expect(parseRateLimit('600/min,burst=3,retry-after')).toEqual({ perSecond: 10, burst: 3, retryAfter: true });
    expect(parseRateLimit('0.5/s')).toEqual({ perSecond: 0.5, burst: 1, retryAfter: false });
    expect(parseRateLimit('off')).toBeNull();
  });

  it.each(['fast', '0/s', '25/s,burst=0', '25/s,burst=x', '25/s,colour=red', '25/s,burst=2,burst=3', '25/hour'])(
    'refuses %s',
    (text) => {
      expect(() => parseRateLimit(text)).toThrow(FaultSpecError);
    },
  );
});

describe('token bucket', () => {
  it('lets a burst through, then one request per 1/rate, each key on its own', () => {
    let t = 0;
    const b = new RateLimiter('10/s,burst=3', () => t);
    expect([1, 2, 3, 4].map(() => b.take('a').ok)).toEqual([true, true, true, false]);
    expect(b.take('b').ok).toBe(true); // another key: another bucket
    t = 99;
    expect(b.take('a').ok).toBe(false);
    t = 100;
    expect(b.take('a').ok).toBe(true);
    expect(b.take('a').ok).toBe(false);
    t = 10_000; // refilled to the burst, not beyond
    expect([1, 2, 3, 4].map(() => b.take('a').ok)).toEqual([true, true, true, false]);
    expect(b.view()).toMatchObject({ perSecond: 10, burst: 3, admitted: 8, refused: 4 });
  });

  it('says how long until the next token in whole seconds when asked to', () => {
    let t = 0;
    const b = new RateLimiter('0.5/s,burst=1,retry-after', () => t);
    expect(b.take('a')).toEqual({ ok: true });
    expect(b.take('a')).toEqual({ ok: false, retryAfterS: 2 });
    t = 1500;
    expect(b.take('a')).toEqual({ ok: false, retryAfterS: 1 });
    expect(new RateLimiter('1/s,burst=1', () => t).take('a').ok).toBe(true);
  });
});

describe('over HTTP', () => {
  let h: Harness;
  beforeAll(async () => (h = await harness()));
  afterAll(async () => h.close());

  const invite = async (email: string, key = h.keyA) => {
    const r = await fetch(`${h.sb.baseUrl}/v3/tests/1001/invite`, {
      method: 'POST',
      headers: { 'X-API-KEY': key, 'content-type': 'application/json' },
      body: JSON.stringify({ email, name: 'Rate Candidate' }),
    });
    return {
      status: r.status,
      retryAfter: r.headers.get('retry-after'),
      body: (await r.json()) as { errors?: string[] },
    };
  };

  it('past the burst: 429 with the vendor’s words and no Retry-After, nothing created; counters at GET', async () => {
    expect((await h.control('POST', '/rate-limit', { spec: '1/s,burst=2' })).status).toBe(200);
    expect((await invite('r1@rate.test')).status).toBe(200);
    expect((await invite('r2@rate.test')).status).toBe(200);
    const refused = await invite('r3@rate.test');
    expect(refused.status).toBe(429);
    expect(refused.retryAfter).toBeNull();
    expect(refused.body.errors?.[0]).toMatch(/too many requests or quota exhausted/i);
    expect((await h.control('GET', '/invitations?email=r3%40rate.test')).body.invitations).toHaveLength(0);
    expect((await invite('r4@rate.test', h.keyB)).status).not.toBe(429); // the other account's key has its own bucket
    expect((await h.control('GET', '/rate-limit')).body).toEqual({
      spec: '1/s,burst=2',
      perSecond: 1,
      burst: 2,
      retryAfter: false,
      admitted: 3,
      refused: 1,
    });
  });

  it('retry-after adds the header; DELETE switches the limit off and answers the final counters', async () => {
    await h.control('POST', '/rate-limit', { spec: '0.5/s,burst=1,retry-after' });
    expect((await invite('r5@rate.test')).status).toBe(200);
    const refused = await invite('r6@rate.test');
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
    expect((await h.control('DELETE', '/rate-limit')).body).toMatchObject({ spec: null, admitted: 1, refused: 1 });
    expect((await invite('r6@rate.test')).status).toBe(200);
    expect((await h.control('POST', '/rate-limit', { spec: 'fast' })).status).toBe(400);
  });
});
