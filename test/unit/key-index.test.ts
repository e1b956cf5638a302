// KeyIndex must behave exactly like a Map<string, number> with first-wins inserts: a wrong
// answer would skip a candidate as a "duplicate" (or invite one twice).
import { describe, expect, it } from 'vitest';
import { KeyIndex } from '../../src/bulk/key-index.js';

describe('KeyIndex', () => {
  it('agrees with a Map over 20,000 keys, across every growth of its arrays and table', () => {
    const index = new KeyIndex();
    const map = new Map<string, number>();
    for (let i = 0; i < 20_000; i++) {
      // Every 7th key repeats an earlier one: first wins, later ones report "already there".
      const key = i % 7 === 6 ? `1001|default|r${i - 3}@bench.example` : `1001|default|r${i}@bench.example`;
      expect(index.setIfAbsent(key, i + 2)).toBe(!map.has(key));
      if (!map.has(key)) map.set(key, i + 2);
    }
    expect(index.size).toBe(map.size);
    for (const [key, line] of map) expect(index.get(key)).toBe(line);
    expect([...index.keys()]).toEqual([...map.keys()]);
    expect(index.get('1001|default|r6@bench.example')).toBeUndefined();
    expect(index.has('1001|default|r0@bench.example')).toBe(true);
  });

  it('compares whole keys: prefixes, long keys and non-ASCII keys stay distinct', () => {
    const index = new KeyIndex();
    const keys = [
      'a',
      'ab',
      'abc',
      '',
      'b',
      'ä',
      'a\u0308',
      'x|y|zoë@example.com',
      'X|y|zoë@example.com',
      'é'.repeat(2000),
    ];
    keys.forEach((k, i) => expect(index.setIfAbsent(k, i)).toBe(true));
    keys.forEach((k, i) => expect(index.get(k)).toBe(i));
    expect(index.get('abcd')).toBeUndefined();
    expect(index.get('é'.repeat(1999))).toBeUndefined();
    expect([...index.keys()]).toEqual(keys);
  });
});
