import { describe, expect, it } from 'vitest';
import { chunk, dedupe, idsNamedIn, parseIdArgs, parseIdText } from '../../src/commands/shared/invitation-ids.js';
import { UsageError } from '../../src/errors.js';

describe('callback ids', () => {
  it('reads one per line, comma or whitespace separated, with # comments', () => {
    expect(parseIdText('# header\n5001\n5002, 5003\t5004 # trailing\n\n  5005,\r\n')).toEqual([
      '5001',
      '5002',
      '5003',
      '5004',
      '5005',
    ]);
  });
  it('names the line and the word of a bad token, never the token', () => {
    expect(() => parseIdText('5001\n50x2\n')).toThrow(/^--file: line 2: not an invitation id$/);
    expect(() => parseIdText('5001\n5002, 50x2\n')).toThrow(/^--file: line 2, word 2: not an invitation id$/);
    expect(() => parseIdText('5001\n50x2\n')).toThrow(UsageError);
    // a key file named by mistake: its line never reaches the message or the hint
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    for (const text of [secret, `${secret}\n`, `5001 ${secret}`, '99999999999999999999']) {
      const err = (() => {
        try {
          parseIdText(text);
        } catch (e) {
          return e as UsageError;
        }
      })()!;
      expect(err).toBeInstanceOf(UsageError);
      expect(`${err.message}\n${err.hint ?? ''}`).not.toContain(text.trim().split(' ').pop()!.slice(0, 6));
    }
  });
  it('validates arguments', () => {
    expect(parseIdArgs(['1', '2,3'])).toEqual(['1', '2', '3']);
    expect(() => parseIdArgs(['1', 'abc'])).toThrow(/'abc'/);
    expect(() => parseIdArgs(['0'])).toThrow(UsageError);
  });
  it('dedupes keeping first occurrence, and chunks by size', () => {
    expect(dedupe(['3', '1', '3', '2', '1'])).toEqual(['3', '1', '2']);
    const ids = Array.from({ length: 250 }, (_, i) => String(i + 1));
    expect(chunk(ids, 100).map((c) => c.length)).toEqual([100, 100, 50]);
    expect(chunk([], 100)).toEqual([]);
  });
  it('finds the ids a 401 names, as separate entries or inside the message', () => {
    const r = idsNamedIn(
      ['Test invitation id does not belong to this account: 42, 43', '42', '43'],
      ['41', '42', '43', '4'],
    );
    expect(r.ids.sort()).toEqual(['42', '43']);
    expect(r.message).toBe('Test invitation id does not belong to this account: 42, 43');
    expect(idsNamedIn(['Invalid API key'], ['1']).ids).toEqual([]);
  });
});
