// Pieces of the key/value view on a terminal (Printer.object): words and dotted keys broken where
// a person would break them, never mid-word.
import { displayWidth } from './width.js';

/** Text in lines of at most `width` columns, broken at spaces (a longer word stays whole). */
export function wrapWords(text: string, width: number): string[] {
  if (displayWidth(text) <= width || width < 8) return [text];
  const lines: string[] = [];
  let cur = '';
  for (const word of text.split(/ +/)) {
    const next = cur ? `${cur} ${word}` : word;
    if (cur && displayWidth(next) > width) {
      lines.push(cur);
      cur = word;
    } else cur = next;
  }
  if (cur) lines.push(cur);
  return lines;
}

/** A dotted key wider than the terminal, broken after dots (continuations indented two). */
export function breakKey(key: string, width: number): string[] {
  if (displayWidth(key) <= width) return [key];
  const parts = key.split(/(?<=\.)/);
  const lines: string[] = [];
  let cur = '';
  for (const p of parts) {
    if (cur && displayWidth(cur + p) > width) {
      lines.push(cur);
      cur = `  ${p}`;
    } else cur += p;
  }
  lines.push(cur);
  return lines;
}
