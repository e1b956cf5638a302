// Which table columns fit a terminal of a given width, and how wide each may be. A table never
// wraps a row: the lowest-ranked columns are dropped until the rest fit at their narrowest, then
// the widest text columns give up characters (their cells end in `…`) until the table fits.
import { displayWidth } from './width.js';

export interface FitColumn {
  header: string;
  /** The column's cells as shown (escaped, no colour). */
  cells: readonly string[];
  /** 1 is kept longest; a larger number is dropped first (ties: the rightmost first). */
  priority: number;
  /** Text may be shortened; ids, dates and statuses are shown whole or not at all. */
  shrinkable: boolean;
}

export interface Fit {
  /** Indexes of the columns kept, in their original order. */
  keep: number[];
  /** Width of each kept column (same order as `keep`). */
  widths: number[];
}

/** A text column is not cut below this many columns (or its natural width, if smaller). */
export const MIN_TEXT_WIDTH = 10;

/** cli-table3's frame: `│ a │ b │` is each width + 2 padding + one border, plus the last border. */
export const tableWidth = (widths: readonly number[]) => widths.reduce((a, w) => a + w + 3, 1);

export function fitColumns(cols: readonly FitColumn[], width: number): Fit {
  const natural = cols.map((c) => Math.max(displayWidth(c.header), ...c.cells.map(displayWidth)));
  const least = cols.map((c, i) => (c.shrinkable ? Math.min(natural[i], MIN_TEXT_WIDTH) : natural[i]));
  const keep = cols.map((_, i) => i);
  while (keep.length > 1 && tableWidth(keep.map((i) => least[i])) > width) {
    let drop = 0;
    for (let k = 1; k < keep.length; k++) if (cols[keep[k]].priority >= cols[keep[drop]].priority) drop = k;
    keep.splice(drop, 1);
  }
  const widths = keep.map((i) => natural[i]);
  let excess = tableWidth(widths) - width;
  // Narrow the widest column that may still give up a character, one at a time.
  while (excess > 0) {
    let pick = -1;
    for (let k = 0; k < keep.length; k++) {
      if (widths[k] <= least[keep[k]]) continue;
      if (pick < 0 || widths[k] > widths[pick]) pick = k;
    }
    // Nothing left above its minimum (a very narrow terminal): the widest column is cut anyway.
    if (pick < 0) pick = widths.indexOf(Math.max(...widths));
    if (widths[pick] <= 1) break;
    widths[pick]--;
    excess--;
  }
  return { keep, widths };
}
