// The one way text for people is fitted to a width: broken at spaces, never inside a word, each
// continuation line indented as its line is. Help pages (src/cli/help-text.ts) and the notices a
// command writes to a terminal's stderr (ctx.info, ctx.warn) both use it. A word wider than the
// width (a URL, a path) stands whole on a line of its own: a terminal shows it whole that way.
import { displayWidth } from './width.js';

/**
 * `line` (no newline) broken at spaces within `width`; continuation lines start with `next`, else the line's indent.
 */
export function wrapLine(line: string, width: number, next?: string): string {
  if (displayWidth(line) <= width) return line;
  const indent = /^\s*/.exec(line)![0];
  const words = line.slice(indent.length).split(/ +/);
  const out: string[] = [];
  let cur = indent;
  for (const word of words) {
    const candidate = cur.trim() ? `${cur} ${word}` : `${cur}${word}`;
    if (displayWidth(candidate) <= width || !cur.trim()) cur = candidate;
    else {
      out.push(cur);
      cur = `${next ?? indent}${word}`;
    }
  }
  out.push(cur);
  return out.join('\n');
}

/**
 * Every line of `text` wider than `width` broken at spaces. `keep(line)` names lines that are
 * copied as they are (an example command in help).
 */
export function wrapText(text: string, width: number, keep: (line: string) => boolean = () => false): string {
  return text
    .split('\n')
    .map((line) => (keep(line) ? line : wrapLine(line, width)))
    .join('\n');
}
