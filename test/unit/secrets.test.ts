// The run's secrets (src/api/redact.ts): each masked whole and in part (a server echoing the key
// minus its last four characters), URL-encoded and JSON-escaped too, across the chunks of a
// stream; shown once where the user asked for it.
import { describe, expect, it } from 'vitest';
import { maskUserinfoLoosely, Secrets } from '../../src/api/redact.js';

const KEY = 'sk_live_9f3Kq2Lm8Np4Rs6Tv1Wx5Yz7';

describe('Secrets.scrub', () => {
  const s = new Secrets().add(KEY, 'tok/en+with=chars"and\\');
  it('masks the key, its long prefixes and any run of 12 of its characters; not the last four alone', () => {
    expect(s.scrub(`a ${KEY} b`)).toBe('a **** b');
    expect(s.scrub(`echo: ${KEY.slice(0, -4)}!`)).toBe('echo: ****!');
    expect(s.scrub(`mid ${KEY.slice(5, 17)} end`)).toBe('mid **** end');
    expect(s.scrub(`short ${KEY.slice(0, 11)}`)).toBe(`short ${KEY.slice(0, 11)}`);
    expect(s.scrub('key ****Yz7')).toBe('key ****Yz7');
  });
  it('masks URL-encoded and JSON-escaped forms, and URL userinfo', () => {
    expect(s.scrub(`?t=${encodeURIComponent('tok/en+with=chars"and\\')}`)).toBe('?t=****');
    expect(s.scrub(JSON.stringify({ t: 'tok/en+with=chars"and\\' }))).toBe('{"t":"****"}');
    expect(s.scrub('see https://bob:hunter2@api.example.com/x')).toBe('see https://****@api.example.com/x');
  });
  it('scrubValue masks strings at any depth, keys too', () => {
    expect(new Secrets().add(KEY).scrubValue({ a: [{ [KEY]: `x${KEY}` }] })).toEqual({ a: [{ '****': 'x****' }] });
  });
  it('short values are ignored (they would mask words)', () => {
    expect(new Secrets().add('abc').scrub('abc abc')).toBe('abc abc');
  });
});

describe('Secrets.stream', () => {
  it('a secret split across chunks (and a character split across them) is masked', async () => {
    const s = new Secrets().add(KEY);
    const t = s.stream();
    let out = '';
    t.on('data', (d: Buffer) => (out += d.toString()));
    const text = Buffer.from(`héllo ${KEY} and ${KEY.slice(0, -4)} bye é`);
    for (let i = 0; i < text.length; i += 7) t.write(text.subarray(i, i + 7));
    t.end();
    await new Promise((r) => t.on('end', r));
    expect(out).toBe('héllo **** and **** bye é');
  });
});

describe('Secrets.revealed', () => {
  it('shows the secret once inside, masks it again after', () => {
    const s = new Secrets().add('the-listener-token-123');
    const seen: string[] = [];
    s.revealed('the-listener-token-123', () => seen.push(s.scrub('url?token=the-listener-token-123')));
    seen.push(s.scrub('url?token=the-listener-token-123'));
    expect(seen).toEqual(['url?token=the-listener-token-123', 'url?token=****']);
  });
});

describe('an unparsable URL shown without its userinfo', () => {
  it.each([
    ['https//u:p4ss@host/x', 'https//****@host/x'],
    ['htps:/u:p4ss@host', 'htps:/****@host'],
    ['u:p4ss@host:8080', '****@host:8080'],
    ['http://host/a@b', 'http://host/a@b'],
  ])('%s → %s', (text, shown) => expect(maskUserinfoLoosely(text)).toBe(shown));
});
