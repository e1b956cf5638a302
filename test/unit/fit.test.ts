// Shortening cells and fitting tables to a width: display width (wide characters count 2),
// whole escapes, which columns go first.
import { describe, expect, it } from 'vitest';
import { fitColumns, tableWidth, type FitColumn } from '../../src/output/fit.js';
import { displayWidth, truncate } from '../../src/output/width.js';

describe('truncate', () => {
  it('leaves text that fits alone and ends cut text with …', () => {
    expect(truncate('Campus drive', 12)).toBe('Campus drive');
    expect(truncate('Campus drive (timebound)', 10)).toBe('Campus dr…');
    expect(displayWidth(truncate('Campus drive (timebound)', 10))).toBe(10);
  });

  it('counts East Asian wide characters as two columns and never splits one', () => {
    const name = '山田太郎さんの試験'; // 9 wide characters, 18 columns
    expect(displayWidth(name)).toBe(18);
    const cut = truncate(name, 8);
    expect(cut).toBe('山田太…'); // 6 columns + … ; a fourth wide character would make 9
    expect(displayWidth(cut)).toBeLessThanOrEqual(8);
  });

  it('cuts before a visible escape, never inside it', () => {
    const escaped = 'Eve\\x1b]0;pwned';
    expect(truncate(escaped, 6)).toBe('Eve…');
    expect(truncate(escaped, 8)).toBe('Eve\\x1b…');
    expect(truncate('ab\\u202ecd', 6)).toBe('ab…');
  });
});

const col = (header: string, cells: string[], priority: number, shrinkable = true): FitColumn => ({
  header,
  cells,
  priority,
  shrinkable,
});

describe('fitColumns', () => {
  const cols = [
    col('Id', ['5001'], 1, false),
    col('Name', ['A rather long link name for a campus drive'], 2),
    col('Status', ['active'], 3, false),
    col('Start', ['2026-11-22 22:12'], 4, false),
    col('TZ', ['1'], 5),
  ];

  it('keeps every column at its natural width when the table fits', () => {
    const fit = fitColumns(cols, 200);
    expect(fit.keep).toEqual([0, 1, 2, 3, 4]);
    expect(fit.widths).toEqual([4, 42, 6, 16, 2]);
  });

  it('drops a less useful column before cutting a more useful text column below a readable width', () => {
    const fit = fitColumns(cols, 60);
    expect(fit.keep).toEqual([0, 1, 2, 3]); // TZ (5) goes; Name keeps 21 columns, not 16
    expect(tableWidth(fit.widths)).toBe(60);
    expect(fit.widths).toEqual([4, 21, 6, 16]);
  });

  it('shortens text, and only text, when what is left is all more useful', () => {
    const fit = fitColumns(
      [col('Id', ['5001'], 1, false), col('Name', ['A rather long link name for a campus drive'], 2)],
      30,
    );
    expect(fit.keep).toEqual([0, 1]);
    expect(fit.widths).toEqual([4, 19]);
  });

  it('keeps names and e-mails readable rather than a Type column whole', () => {
    const people = [
      col('Invitation', ['900123'], 1, false),
      col('Name', ['Wanjiru Kamau-Otieno'], 4),
      col('E-mail', ['wanjiru.kamau-otieno@university.example'], 3),
      col('Type', ['api'], 6),
      col('Status', ['Complete'], 2, false),
    ];
    const fit = fitColumns(people, 75);
    expect(fit.keep).toEqual([0, 1, 2, 4]); // Type dropped
    expect(fit.widths[1]).toBe(20); // the name whole
    expect(fit.widths[2]).toBeGreaterThanOrEqual(20);
  });

  it('a group (Start and End) is dropped together: never Start without End', () => {
    const link = [
      col('Id', ['5001'], 1, false),
      col('Name', ['Campus drive'], 2),
      { ...col('Start', ['2026-11-22 22:12'], 7, false), group: 'window' },
      { ...col('End', ['2026-11-29 22:12'], 7, false), group: 'window' },
    ];
    expect(fitColumns(link, 61).keep).toEqual([0, 1, 2, 3]);
    expect(fitColumns(link, 60).keep).toEqual([0, 1]);
    expect(fitColumns(link, 50).keep).toEqual([0, 1]);
  });

  it('drops the lowest-ranked columns when the rest cannot fit at their narrowest', () => {
    const fit = fitColumns(cols, 40);
    expect(fit.keep).toEqual([0, 1, 2]); // Start (4) and TZ (5) dropped
    expect(tableWidth(fit.widths)).toBeLessThanOrEqual(40);
  });

  it('ties go to the rightmost column', () => {
    const same = [col('A', ['aaaaaaaaaa'], 1), col('B', ['bbbbbbbbbb'], 2), col('C', ['cccccccccc'], 2)];
    expect(fitColumns(same, 30).keep).toEqual([0, 1]);
  });

  it('on a very narrow terminal the one column left is cut below its minimum', () => {
    const fit = fitColumns([col('Id', ['123456789012'], 1, false)], 10);
    expect(fit.keep).toEqual([0]);
    expect(tableWidth(fit.widths)).toBeLessThanOrEqual(10);
  });
});
