// Text added after a command's help (examples, notes, exit codes), wrapped at word boundaries to
// the width the help is shown at (commander wraps its own descriptions, not this text): a
// terminal of 70 or 100 columns no longer cuts "nothing is se / nt twice". Example commands
// (`  $ assess …`) are copied, never wrapped.
import type { AddHelpTextContext } from 'commander';
import { displayWidth } from '../output/width.js';

/** `text` with every prose line wider than `width` broken at spaces; continuation lines keep its indent. */
export function wrapHelpText(text: string, width: number): string {
  return text
    .split('\n')
    .map((line) => (line.trimStart().startsWith('$ ') || displayWidth(line) <= width ? line : wrapLine(line, width)))
    .join('\n');
}

function wrapLine(line: string, width: number): string {
  const indent = /^\s*/.exec(line)![0];
  const words = line.slice(indent.length).split(/ +/);
  const out: string[] = [];
  let cur = indent;
  for (const word of words) {
    const candidate = cur.trim() ? `${cur} ${word}` : `${cur}${word}`;
    if (displayWidth(candidate) <= width || !cur.trim()) cur = candidate;
    else {
      out.push(cur);
      cur = `${indent}${word}`;
    }
  }
  out.push(cur);
  return out.join('\n');
}

/** For `addHelpText('after', …)`: the text wrapped to the help width of the stream it goes to. */
export function wrappedHelp(text: string): (ctx: AddHelpTextContext) => string {
  return ({ error, command }) => {
    const out = command.configureOutput();
    const width = (error ? out.getErrHelpWidth?.() : out.getOutHelpWidth?.()) ?? 80;
    return wrapHelpText(text, width);
  };
}
