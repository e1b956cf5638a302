// The --debug log of a transport (src/api/request-log.ts): no part of the key in any line.
import { describe, expect, it } from 'vitest';
import { Secrets } from '../../src/api/redact.js';
import { RequestLog } from '../../src/api/request-log.js';

const KEY = 'sk_live_0123456789abcdef';

describe('RequestLog', () => {
  it('masks the key header, and scrubs a body before cutting it (no part of the key at the cut)', () => {
    const lines: string[] = [];
    const log = new RequestLog((l) => lines.push(l), new Secrets().add(KEY), 'X-API-KEY');
    const body = `${'x'.repeat(1990)}${KEY}${'y'.repeat(100)}`;
    log.request(
      'POST',
      `https://api.example.com/v3/tests?k=${KEY}`,
      { 'X-API-KEY': KEY, accept: 'application/json' },
      body,
      2,
    );
    log.answer(body);
    const text = lines.join('\n');
    expect(lines[0]).toBe('--> POST https://api.example.com/v3/tests?k=**** (attempt 2)');
    expect(text).toContain('    X-API-KEY: ****');
    expect(text).not.toContain(KEY.slice(0, 8));
    // 1,990 x, the key masked (4), then 6 of the 100 y: 2,000 characters of the scrubbed 2,094
    const bodies = lines.filter((l) => / body /.test(l));
    expect(bodies.map((l) => l.slice(-24))).toEqual(['****yyyyyy… (2094 bytes)', '****yyyyyy… (2094 bytes)']);
  });

  it('writes nothing without a sink', () => {
    const log = new RequestLog(undefined, new Secrets().add(KEY), 'X-API-KEY');
    expect(() => log.request('GET', 'https://h/', {}, 'b', 1)).not.toThrow();
    expect(log.scrub(`a ${KEY} b`)).toBe('a **** b');
  });
});
