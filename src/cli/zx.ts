// zod helpers for commander strings, with messages that give an accepted example.
import * as z from 'zod/mini';
import { httpUrl } from '../util/url-text.js';
import { emailPattern } from '../api/schemas/email.js';

/** C0/C1 control characters (NUL, ESC, newline…): never wanted in a name, and unsafe to print. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** Zod helpers for commander strings, with messages that give an accepted example. */
export const zx = {
  /** An address to bind a local server to. */
  host: () => z.string().check(z.regex(/^[0-9a-fA-F.:]+$|^localhost$/, 'must be an IP address, e.g. 127.0.0.1')),
  /** A 64-bit positive integer id, kept as a string so no precision is lost. */
  id: (example = '12345') =>
    z.string().check(
      z.trim(),
      z.regex(/^[1-9][0-9]{0,18}$/, `must be a positive integer id, e.g. ${example}`),
      // zod runs this even when the regex failed: only compare digits.
      z.refine((s) => !/^\d+$/.test(s) || BigInt(s) <= 9223372036854775807n, 'is larger than a 64-bit integer'),
    ),
  /** Decimal digits only: Number() alone would also take '1e3', '0x10' and '' (as 0). */
  int: (min: number, max: number, example: number) =>
    z.pipe(
      z.transform((v: unknown) => (typeof v === 'string' && !/^\s*[+-]?\d{1,16}\s*$/.test(v) ? Number.NaN : v)),
      z.coerce
        .number({ message: `must be a whole number, e.g. ${example}` })
        .check(
          z.int(`must be a whole number, e.g. ${example}`),
          z.gte(min, `must be at least ${min}, e.g. ${example}`),
          z.lte(max, `must be at most ${max}, e.g. ${example}`),
        ),
    ),
  /** A name: trimmed, not empty, at most `max` characters, no control characters. */
  name: (example: string, max = 200) =>
    z.string().check(
      z.trim(),
      z.minLength(1, `must not be empty, e.g. ${example}`),
      z.maxLength(max, `must be at most ${max} characters`),
      z.refine((s) => !CONTROL.test(s), 'must not contain control characters (NUL, ESC, line breaks, …)'),
    ),
  /**
   * At most 254 characters (RFC 5321); zod's pattern alone took a 100 KB address. Letters of any
   * script (`chloé@example.com`), in NFC: the same address typed or pasted decomposed is the same.
   */
  email: () =>
    z.pipe(
      z.pipe(
        z
          .string()
          .check(
            z.trim(),
            z.maxLength(254, 'must be an e-mail address of at most 254 characters, e.g. ann@example.com'),
          ),
        z.transform((s) => s.normalize('NFC')),
      ),
      z.email({ pattern: emailPattern(), message: 'must be an e-mail address, e.g. ann@example.com' }),
    ),
  /** No control characters or spaces inside (src/util/url-text.ts): the parser would drop or keep them silently. */
  url: () => httpUrl('https://example.com/hook'),
};
