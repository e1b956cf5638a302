// Which table columns fit a terminal of a given width, and how wide each may be. A table never
// wraps a row. First the least useful columns go while a more useful text column would otherwise
// be cut below a readable width (names and e-mails stay readable; a Type column is not kept whole
// at their expense); then, if it still does not fit, the lowest-ranked columns are dropped until
// the rest fit at their narrowest, and the widest text columns give up characters (`…`).
// Columns of one group (a window's Start and End) are kept or dropped together.
import { displayWidth } from './width.js';

export interface FitColumn {
  header: string;
  /** The column's cells as shown (escaped, no colour). */
  cells: readonly string[];
  /** 1 is kept longest; a larger number is dropped first (ties: the rightmost first). */
  priority: number;
  /** Text may be shortened; ids, dates and statuses are shown whole or not at all. */
  shrinkable: boolean;
  /** Columns that mean something only together (Start and End): dropped together. */
  group?: string;
}

export interface Fit {
  /** Indexes of the columns kept, in their original order. */
  keep: number[];
  /** Width of each kept column (same order as `keep`). */
  widths: number[];
}

/** A text column is not cut below this many columns (or its natural width, if smaller). */
export const MIN_TEXT_WIDTH = 10;
/** A text column cut below this is hard to read: a less useful column is dropped first. */
export const READABLE_TEXT_WIDTH = 20;

/** cli-table3's frame: `│ a │ b │` is each width + 2 padding + one border, plus the last border. */
export const tableWidth = (widths: readonly number[]) => widths.reduce((a, w) => a + w + 3, 1);

export function fitColumns(cols: readonly FitColumn[], width: number): Fit {
  const natural = cols.map((c) => Math.max(displayWidth(c.header), ...c.cells.map(displayWidth)));
  const narrowest = (limit: number) => cols.map((c, i) => (c.shrinkable ? Math.min(natural[i], limit) : natural[i]));
  const readable = narrowest(READABLE_TEXT_WIDTH);
  const least = narrowest(MIN_TEXT_WIDTH);
  const keep = cols.map((_, i) => i);
  /** The position in `keep` of the least useful column (ties: the rightmost). */
  const leastUseful = () => {
    let drop = 0;
    for (let k = 1; k < keep.length; k++) if (cols[keep[k]].priority >= cols[keep[drop]].priority) drop = k;
    return drop;
  };
  const dropAt = (k: number) => {
    const group = cols[keep[k]].group;
    keep.splice(k, 1);
    if (group === undefined) return;
    for (let j = keep.length - 1; j >= 0 && keep.length > 1; j--) if (cols[keep[j]].group === group) keep.splice(j, 1);
  };
  // 1. Drop what is less useful than a text column that would otherwise be cut below readable.
  while (keep.length > 1 && tableWidth(keep.map((i) => readable[i])) > width) {
    const k = leastUseful();
    const rank = cols[keep[k]].priority;
    if (!keep.some((i) => cols[i].shrinkable && cols[i].priority < rank && natural[i] > MIN_TEXT_WIDTH)) break;
    dropAt(k);
  }
  // 2. Drop until the rest fit at their narrowest.
  while (keep.length > 1 && tableWidth(keep.map((i) => least[i])) > width) dropAt(leastUseful());
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
