// The pure statistics behind `report stats` and the HTML digest: percentiles, bins, tolerance;
// and the terminal picture at fixed widths.
import { describe, expect, it } from 'vitest';
import {
  cohortStats,
  funnelOf,
  histogram,
  percentile,
  scorePercent,
  spread,
} from '../../src/commands/report/shared/stats.js';
import { renderStats, type StatsReport } from '../../src/commands/report/shared/stats-view.js';
import { PLAIN, styleFor } from '../../src/output/style.js';
import { displayWidth } from '../../src/output/width.js';

describe('percentile (linear between ranks)', () => {
  it('interpolates: the median of an even count is the mean of the middle two', () => {
    expect(percentile([70, 80], 0.5)).toBe(75);
    expect(percentile([10, 20, 30, 40], 0.25)).toBe(17.5);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.9)).toBeCloseTo(9.1, 10);
  });
  it('one value is every percentile; none is NaN', () => {
    expect(percentile([42], 0.9)).toBe(42);
    expect(percentile([], 0.5)).toBeNaN();
  });
  it('spread sorts first and rounds to two decimals', () => {
    expect(spread([3, 1, 2])).toEqual({ mean: 2, median: 2, p25: 1.5, p75: 2.5, p90: 2.8, min: 1, max: 3 });
    expect(spread([1, 1, 2])!.mean).toBe(1.33);
    expect(spread([])).toBeNull();
  });
});

describe('histogram', () => {
  it('bins of ten: a bound starts its bin, 100 falls in the last, out-of-range values are clamped', () => {
    const bins = histogram([0, 9.99, 10, 89.5, 90, 100, -3, 120]);
    expect(bins.map((b) => b.count)).toEqual([3, 1, 0, 0, 0, 0, 0, 0, 1, 3]);
    expect(bins[9]).toEqual({ from: 90, to: 100, count: 3 });
  });
});

describe('reading reports tolerantly', () => {
  it('scorePercentage, else points over total; nothing usable is null', () => {
    expect(scorePercent({ scorePercentage: 82 })).toBe(82);
    expect(scorePercent({ scorePercentage: '64' })).toBe(64);
    expect(scorePercent({ candidatePoints: 30, totalTestPoints: 40 })).toBe(75);
    expect(scorePercent({ candidatePoints: 30, totalTestPoints: 0 })).toBeNull();
    expect(scorePercent({ status: 'Pending' })).toBeNull();
  });
  it('a report without numbers counts as listed, not as scored; odd shapes are skipped', () => {
    const s = cohortStats(
      [
        { scorePercentage: 50, sections: 'none', Skills: [null, 3] },
        { status: 'Pending', sections: [{ sectionName: 'A', candidateScore: null, sectionScore: 10 }] },
        {
          scorePercentage: 70,
          PerformanceCategory: 'Good',
          sections: [{ sectionName: 'A', candidateScore: 7, sectionScore: 10, sectionTimeTaken: 600, sectionTime: 20 }],
        },
      ],
      4,
      1,
    );
    expect(s).toMatchObject({ count: 4, scored: 2, failed: 1, categories: [{ category: 'Good', count: 1 }] });
    expect(s.score!.median).toBe(60);
    expect(s.sections).toEqual([{ id: null, name: 'A', attempts: 1, meanPoints: 7, meanOutOf: 10, meanPercent: 70 }]);
    expect(s.timeToComplete).toMatchObject({ attempts: 1, mean: 10, meanAllocated: 20 });
  });
  it('sections of different tests with the same name stay apart (keyed by id)', () => {
    const s = cohortStats(
      [
        { sections: [{ sectionId: 12, sectionName: 'Coding', candidateScore: 10, sectionScore: 20 }] },
        { sections: [{ sectionId: 52, sectionName: 'Coding', candidateScore: 40, sectionScore: 50 }] },
      ],
      2,
    );
    expect(s.sections.map((x) => [x.id, x.meanPercent])).toEqual([
      ['12', 50],
      ['52', 80],
    ]);
  });
});

describe('funnelOf', () => {
  it('splits the completed listing by its status; cancelled and expired never started', () => {
    const f = funnelOf(
      [
        { testStatus: 'Complete' },
        { testStatus: 'Test Left' },
        { testStatus: 'Terminated' },
        { testStatus: 'Complete' },
      ],
      [{ testStatus: 'Cancelled' }],
      [],
    );
    expect(f).toEqual({ invited: 5, started: 4, completed: 2, left: 1, terminated: 1, cancelled: 1, expired: 0 });
  });
});

describe('renderStats: the terminal picture fits the width', () => {
  const stats: StatsReport = {
    state: 'completed',
    from: '2026-03-01T00:00:00Z',
    to: '2026-04-01T00:00:00Z',
    testId: '1001',
    ...cohortStats(
      [
        {
          scorePercentage: 82,
          PerformanceCategory: 'Good',
          sections: [
            {
              sectionId: 1,
              sectionName: 'A section with a very long name indeed, longer than any column',
              candidateScore: 8,
              sectionScore: 10,
              sectionTimeTaken: 900,
              sectionTime: 30,
              Skills: [{ qbId: 2, qbName: 'A skill whose name goes on and on', candidateQbScore: 3, qbScore: 4 }],
            },
          ],
        },
      ],
      2,
      1,
    ),
    funnel: { invited: 4, started: 2, completed: 1, left: 1, terminated: 0, cancelled: 1, expired: 1 },
  };
  it.each([60, 80, 160])('%i columns: no line wider, every chart drawn', async (columns) => {
    const text = renderStats(stats, { columns, style: await styleFor(true), ascii: false });
    const plain = text.replace(/\u001b\[[0-9;]*m/g, '');
    for (const line of plain.split('\n')) expect(line.length, line).toBeLessThanOrEqual(Math.min(columns, 120));
    expect(plain).toContain('1 report not fetched');
    expect(plain).toMatch(/ {2}80–90 +█+ {2}1\n/);
    expect(plain).toMatch(/ {2}A section with a very long ?… +█/);
    expect(plain).toMatch(/ {2}A skill whose name goes on ?… +█|A skill whose name goes on and on \(A section… +█/);
    expect(text).toContain('\u001b[1m'); // headings bold when colour is on
  });
  it('wide characters and escapes in names count by the columns they take', () => {
    const wide: StatsReport = {
      ...stats,
      ...cohortStats(
        [
          {
            scorePercentage: 50,
            sections: [
              {
                sectionId: 7,
                sectionName: '日本語のセクション名がとても長い\u001b[2J',
                candidateScore: 5,
                sectionScore: 10,
              },
            ],
          },
        ],
        1,
        0,
      ),
    };
    const plain = renderStats(wide, { columns: 60, style: PLAIN, ascii: true });
    for (const line of plain.split('\n')) expect(displayWidth(line), line).toBeLessThanOrEqual(60);
    expect(plain).toMatch(/日本語.*… +#/);
    expect(plain).not.toContain('\u001b');
  });
  it('ASCII and no colour: # and . only, no escape codes', () => {
    const text = renderStats(stats, { columns: 80, style: PLAIN, ascii: true });
    expect(text).not.toMatch(/[█░▏▎▍▌▋▊▉\u001b]/);
    expect(text).toMatch(/ {2}invited +#{10,} {2}4\n/);
  });
});
