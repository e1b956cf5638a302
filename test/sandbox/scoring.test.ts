import { describe, expect, it } from 'vitest';
import { buildSeedState } from '../../src/sandbox/seed.js';
import { apportion, buildReport, scoreAttempt, testPoints } from '../../src/sandbox/scoring.js';

const seed = buildSeedState(Date.parse('2030-01-01T00:00:00Z'));
const test = seed.tests.find((t) => t.testId === 1002)!;
const inv = { ...seed.invitations[0], testId: 1002, status: 'Complete' as const };

describe('scoring', () => {
  it('apportion splits exactly and never exceeds a weight', () => {
    for (const amount of [0, 1, 7, 50, 99, 100]) {
      const parts = apportion(amount, [30, 30, 20, 20]);
      expect(parts.reduce((a, b) => a + b, 0)).toBe(amount);
      parts.forEach((p, i) => expect(p).toBeLessThanOrEqual([30, 30, 20, 20][i]));
    }
  });
  it.each([0, 1, 37, 50, 73, 99, 100])('a %i %% score adds up at every level', (percent) => {
    const result = scoreAttempt(test, inv.testInvitationId, { percent });
    const r = buildReport(test, { ...inv, result }, 3, 'http://x/pdf');
    const sections = r.sections!;
    for (const s of sections) expect(s.candidateScore).toBe(s.Skills!.reduce((a, k) => a + k.candidateQbScore, 0));
    for (const s of sections) expect(s.sectionScore).toBe(s.Skills!.reduce((a, k) => a + k.qbScore, 0));
    expect(r.candidatePoints).toBe(sections.reduce((a, s) => a + s.candidateScore, 0));
    expect(r.totalTestPoints).toBe(testPoints(test));
    expect(r.scorePercentage).toBe(Math.round((r.candidatePoints! / r.totalTestPoints!) * 100));
    expect(r.scorePercentage).toBe(percent);
  });
  it('per-section percentages score each section', () => {
    const result = scoreAttempt(test, 1, { sectionPercents: [100, 0, 50] });
    const r = buildReport(test, { ...inv, result }, 3, '');
    expect(r.sections!.map((s) => s.candidateScore)).toEqual([60, 0, 15]);
  });
  it('reportType 1 has sections without skills, 2 skills only, 3 both', () => {
    const result = scoreAttempt(test, 1, { percent: 60 });
    const one = buildReport(test, { ...inv, result }, 1, '');
    expect(one.sections![0]).not.toHaveProperty('Skills');
    expect(one).not.toHaveProperty('Skills');
    const two = buildReport(test, { ...inv, result }, 2, '');
    expect(two).not.toHaveProperty('sections');
    expect(two.Skills!.length).toBe(5);
    const three = buildReport(test, { ...inv, result }, 3, '');
    expect(three.sections![0].Skills!.length).toBe(2);
  });
});

describe('production callback times (vendor facts)', () => {
  it('AttemptedOn reads like 09-Oct-2020 06:51 PM', async () => {
    const { vendorDisplayTime } = await import('../../src/sandbox/callbacks.js');
    expect(vendorDisplayTime('2020-10-09T18:51:07Z')).toBe('09-Oct-2020 06:51 PM');
    expect(vendorDisplayTime('2020-01-01T00:05:00Z')).toBe('01-Jan-2020 12:05 AM');
    expect(vendorDisplayTime('2020-01-01T12:00:00Z')).toBe('01-Jan-2020 12:00 PM');
  });
});
