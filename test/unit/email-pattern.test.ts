// src/api/schemas/email.ts: the e-mail pattern answers as its Unicode source does, also where an
// ASCII twin answers for it, and documents the Unicode source.
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { ASCII_EMAIL_SOURCE, EMAIL_SOURCE, emailPattern, isEmail } from '../../src/api/schemas/email.js';

const unicode = new RegExp(EMAIL_SOURCE, 'u');

// random addresses of the characters that matter to the pattern, mostly letters (ASCII ones only
// in every other address), so that many come out valid and many just not (a dot too many, a
// space, a symbol, a one-letter top level)
const ASCII_LETTERS = ['a', 'Z', 'q', '0', '9'];
const LETTERS = [...ASCII_LETTERS, 'é', 'ß', '中'];
const OTHERS = ['.', '-', '_', "'", '+', ' ', '!', '#', '~', '@', '\t', '\u007f', '\u0301'];
function randomAddress(seed: number): string {
  let x = seed + 1;
  const next = () => (x = (x * 48271) % 2147483647);
  const letters = seed % 2 ? LETTERS : ASCII_LETTERS;
  const char = () => (next() % 12 ? letters[next() % letters.length] : OTHERS[next() % OTHERS.length]);
  const part = (n: number) => Array.from({ length: n }, char).join('');
  return `${part(1 + (next() % 6))}@${part(1 + (next() % 5))}.${part(1 + (next() % 3))}`;
}

describe('emailPattern', () => {
  it('accepts and refuses what zod’s pattern with letters of any script does', () => {
    const good = ['ann@example.com', "o'neil+cv@mail.example.org", 'chloé@exemple.fr', '李@例え.jp', 'a_b-c@x-y.io'];
    const bad = ['nope', 'ann@', '@example.com', 'ann@example', 'ann..b@example.com', 'ann.@example.com', 'a b@x.io'];
    for (const v of good) expect([v, emailPattern().test(v), isEmail(v)]).toEqual([v, true, true]);
    for (const v of bad) expect([v, emailPattern().test(v)]).toEqual([v, false]);
  });

  it('answers as the Unicode pattern on 20,000 random addresses, ASCII and not', () => {
    const differ: string[] = [];
    let valid = 0;
    for (let i = 0; i < 20_000; i++) {
      const v = randomAddress(i);
      if (emailPattern().test(v) !== unicode.test(v)) differ.push(v);
      if (unicode.test(v) && /^[a-z0-9.@_'+-]*$/i.test(v)) valid++;
    }
    expect(differ).toEqual([]);
    expect(valid).toBeGreaterThan(1000); // the ASCII twin answered for many valid addresses
    expect(ASCII_EMAIL_SOURCE).not.toContain('\\p{');
  });

  it('documents the Unicode source (JSON Schema, the OpenAPI document)', () => {
    expect(emailPattern().source).toBe(EMAIL_SOURCE);
    expect(String(emailPattern())).toBe(`/${EMAIL_SOURCE}/u`);
    const json = z.toJSONSchema(z.email({ pattern: emailPattern() })) as { pattern?: string };
    expect(json.pattern).toBe(EMAIL_SOURCE);
  });
});
