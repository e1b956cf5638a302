// Text added after a command's help (examples, notes, exit codes), wrapped at word boundaries to
// the width the help is shown at (commander wraps its own descriptions, not this text): a
// terminal of 70 or 100 columns no longer cuts "nothing is se / nt twice". Example commands
// (`  $ assess …`) are copied, never wrapped. The layout of commander's own part follows the
// width too, however narrow: nothing but an unbreakable word (a long flag name) or an example
// is wider than the terminal.
import { Help, type AddHelpTextContext, type Command } from 'commander';
import { displayWidth } from '../output/width.js';

/**
 * The narrowest description column kept beside the terms. Narrower (a narrow terminal, long flag
 * names), each description goes under its term, as clap does, rather than one or two words a
 * line, or running off the screen unwrapped (commander's way below its minimum).
 */
const NARROWEST_BESIDE = 24;
const UNDER_INDENT = '      ';
const USAGE_INDENT = ' '.repeat('Usage: '.length);

/** commander's help settings for every command: wrap at any width, descriptions under their terms when narrow. */
export const HELP_LAYOUT = {
  minWidthToWrap: 1, // wrap whatever the width: formatItem decides where a description goes
  formatItem(this: Help, term: string, termWidth: number, description: string, helper: Help): string {
    const width = this.helpWidth ?? 80;
    const beside = width - termWidth - 4; // commander's item indent and spacer, 2 each
    if (!description || beside >= NARROWEST_BESIDE)
      return Help.prototype.formatItem.call(this, term, termWidth, description, helper);
    const text = helper.preformatted(description)
      ? description
      : helper.boxWrap(description, Math.max(1, width - UNDER_INDENT.length));
    const item = `  ${term}`;
    return `${displayWidth(item) <= width ? item : wrapLine(item, width, '    ')}\n${text.replace(/^/gm, UNDER_INDENT)}`;
  },
  formatHelp(this: Help, cmd: Command, helper: Help): string {
    const text = Help.prototype.formatHelp.call(this, cmd, helper);
    const end = text.indexOf('\n');
    const usage = text.slice(0, end);
    const width = this.helpWidth ?? 80;
    return (displayWidth(usage) <= width ? usage : wrapLine(usage, width, USAGE_INDENT)) + text.slice(end);
  },
};

/** `text` with every prose line wider than `width` broken at spaces; continuation lines keep its indent. */
export function wrapHelpText(text: string, width: number): string {
  return text
    .split('\n')
    .map((line) => (line.trimStart().startsWith('$ ') || displayWidth(line) <= width ? line : wrapLine(line, width)))
    .join('\n');
}

/** `line` broken at spaces within `width`; continuation lines take `next` (else the line's own indent). */
function wrapLine(line: string, width: number, next?: string): string {
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

/** For `addHelpText('after', …)`: the text wrapped to the help width of the stream it goes to. */
export function wrappedHelp(text: string): (ctx: AddHelpTextContext) => string {
  return ({ error, command }) => {
    const out = command.configureOutput();
    const width = (error ? out.getErrHelpWidth?.() : out.getOutHelpWidth?.()) ?? 80;
    return wrapHelpText(text, width);
  };
}
