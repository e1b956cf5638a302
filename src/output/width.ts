// Display width of terminal text and shortening it with `…`. Measured with string-width, the
// same measure cli-table3 pads its cells with, so a cell we cut to N columns is N columns in the
// table too (East Asian wide characters and emoji count 2, combining marks 0).
import stringWidth from 'string-width';

export const ELLIPSIS = '…';

/** Columns `s` takes on a terminal (colour codes count 0). */
export function displayWidth(s: string): number {
  return stringWidth(s);
}

// The visible escapes escape.ts writes (`\x1b`, `\u202e`) are cut whole or not at all; anything
// else is one code point.
const UNIT = /\\x[0-9a-f]{2}|\\u[0-9a-f]{4}|[\s\S]/gu;

/**
 * `s` (already escaped, without colour) in at most `max` columns: unchanged when it fits,
 * otherwise cut at a whole character or escape and ended with `…`.
 */
export function truncate(s: string, max: number): string {
  if (displayWidth(s) <= max) return s;
  if (max <= 0) return '';
  let out = '';
  let used = 0;
  for (const unit of s.match(UNIT) ?? []) {
    const w = displayWidth(unit);
    if (used + w > max - 1) break;
    out += unit;
    used += w;
  }
  return out + ELLIPSIS;
}
