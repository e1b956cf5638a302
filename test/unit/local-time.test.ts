// One time convention for people: this machine's zone (the run's TZ), named beside every time.
import { describe, expect, it } from 'vitest';
import { displayZone, localText, timeText, zoneLabel } from '../../src/output/local-time.js';

describe('timeText', () => {
  it.each([
    ['UTC', '2026-11-21T20:30:00Z', '2026-11-21 20:30 UTC'],
    ['Europe/Paris', '2026-11-21T20:30:00Z', '2026-11-21 21:30 CET'],
    ['Europe/Paris', '2026-07-21T20:30:00Z', '2026-07-21 22:30 CEST'],
    ['Europe/London', '2026-07-21T20:30:00Z', '2026-07-21 21:30 BST'],
    ['America/New_York', '2026-11-21T20:30:00Z', '2026-11-21 15:30 EST'],
    ['Asia/Kolkata', '2026-11-21T20:30:00Z', '2026-11-22 02:00 UTC+5:30'],
    ['Australia/Sydney', '2026-11-21T20:30:00Z', '2026-11-22 07:30 UTC+11'],
    // the service's forms: without a zone (UTC, as the spec reads it), with an offset, with milliseconds
    ['Europe/Paris', '2026-11-21T20:30:00', '2026-11-21 21:30 CET'],
    ['Europe/Paris', '2026-11-21T22:30:00+02:00', '2026-11-21 21:30 CET'],
    ['UTC', '2026-11-21T20:30:59.999Z', '2026-11-21 20:30 UTC'],
  ])('%s: %s → %s', (zone, iso, want) => {
    expect(timeText(iso, zone)).toBe(want);
  });

  it('what is not a time is shown as it is', () => {
    expect(timeText('soon', 'UTC')).toBe('soon');
    expect(timeText('2026-13-45T99:99:00Z', 'UTC')).toBe('2026-13-45T99:99:00Z');
    expect(timeText(null, 'UTC')).toBe('');
    expect(timeText(5, 'UTC')).toBe('5');
  });

  it('with seconds, for the listener', () => {
    expect(localText(new Date('2026-11-21T20:30:05Z'), 'Europe/Berlin', true)).toBe('2026-11-21 21:30:05 CET');
    expect(zoneLabel(new Date('2026-11-21T20:30:05Z'), 'Etc/UTC')).toBe('UTC');
  });
});

describe('displayZone', () => {
  it("the run's TZ when Intl knows it, else the system's (undefined)", () => {
    expect(displayZone({ TZ: 'Europe/Paris' })).toBe('Europe/Paris');
    expect(displayZone({ TZ: ':Asia/Kolkata' })).toBe('Asia/Kolkata');
    expect(displayZone({ TZ: '' })).toBe('UTC');
    expect(displayZone({ TZ: 'CET-1CEST' })).toBeUndefined();
    expect(displayZone({})).toBeUndefined();
  });
});
