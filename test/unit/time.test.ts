import { describe, expect, it } from 'vitest';
import { parseTime, toApiTime, timeArg } from '../../src/util/time.js';

const now = new Date('2026-03-10T12:00:00Z');
const api = (v: string, dir: 'past' | 'future' = 'past') => {
  const r = parseTime(v, now, dir);
  return typeof r === 'string' ? r : toApiTime(r);
};

describe('time arguments', () => {
  it('a date means midnight UTC', () => expect(api('2026-03-01')).toBe('2026-03-01T00:00:00Z'));
  it('ISO with Z, with an offset, and without a zone (UTC)', () => {
    expect(api('2026-03-01T09:30:00Z')).toBe('2026-03-01T09:30:00Z');
    expect(api('2026-03-01T09:30:00+02:00')).toBe('2026-03-01T07:30:00Z');
    expect(api('2026-03-01T09:30')).toBe('2026-03-01T09:30:00Z');
  });
  it('relative values point to the past for windows and to the future for schedules', () => {
    expect(api('7d', 'past')).toBe('2026-03-03T12:00:00Z');
    expect(api('7d', 'future')).toBe('2026-03-17T12:00:00Z');
    expect(api('+12h', 'past')).toBe('2026-03-11T00:00:00Z');
    expect(api('-1w', 'future')).toBe('2026-03-03T12:00:00Z');
    expect(api('now')).toBe('2026-03-10T12:00:00Z');
  });
  it('one grammar for every flag: a sign, ago or in says the direction whatever the flag', () => {
    for (const dir of ['past', 'future'] as const) {
      expect(api('-2d', dir)).toBe('2026-03-08T12:00:00Z');
      expect(api('2d ago', dir)).toBe('2026-03-08T12:00:00Z');
      expect(api('2 days ago', dir)).toBe('2026-03-08T12:00:00Z');
      expect(api('+7d', dir)).toBe('2026-03-17T12:00:00Z');
      expect(api('in 7d', dir)).toBe('2026-03-17T12:00:00Z');
      expect(api('In 1 Week', dir)).toBe('2026-03-17T12:00:00Z');
      expect(api('in 90 minutes', dir)).toBe('2026-03-10T13:30:00Z');
      expect(api('3 hrs ago', dir)).toBe('2026-03-10T09:00:00Z');
      expect(api('today', dir)).toBe('2026-03-10T00:00:00Z');
      expect(api('Yesterday', dir)).toBe('2026-03-09T00:00:00Z');
      expect(api('tomorrow', dir)).toBe('2026-03-11T00:00:00Z');
    }
  });
  it('a bad unit is named; the message lists the grammar', () => {
    expect(api('2 fortnights ago')).toMatch(/'fortnights' is not a unit of time/);
    expect(api('7x')).toMatch(/'x' is not a unit of time/);
    expect(api('in 7')).toMatch(/-2d, \+7d, 2d ago, in 7d, now, today, yesterday/);
    expect(api('2d from now')).toMatch(/is not a time/);
  });
  it('rejects nonsense and impossible dates with an example', () => {
    expect(api('someday')).toMatch(/use YYYY-MM-DD/);
    expect(api('2026-02-30')).toMatch(/not a real date/);
    expect(api('2026-13-01T00:00:00Z')).toMatch(/not a real/);
  });
  it('refuses years outside 1970–9999, also through relative times (years 0–99 are not 1900–1999)', () => {
    expect(api('0026-03-01')).toMatch(/^'0026-03-01' is in the year 26; use a time from 1970 to 9999/);
    expect(api('0099-12-31T10:00:00Z')).toMatch(/in the year 99;/);
    expect(api('1969-12-31T23:59:59Z')).toMatch(/in the year 1969;/);
    expect(api('9999-12-31T23:59:59-05:00')).toMatch(/in the year 10000;/);
    expect(api('+999999w')).toMatch(/in the year 21191;/);
    expect(api('-999999d')).toMatch(/in the year -712;/);
    expect(api('1970-01-01')).toBe('1970-01-01T00:00:00Z');
    expect(api('9999-12-31T23:59:59Z')).toBe('9999-12-31T23:59:59Z');
  });
  it('as a zod schema it yields the API string or an issue', () => {
    expect(timeArg('past', () => now).parse('1d')).toBe('2026-03-09T12:00:00Z');
    expect(timeArg('past', () => now).safeParse('soon').success).toBe(false);
  });
});
