// How every --help page is laid out, for the width it is shown at (a terminal's, COLUMNS, else
// 80): the usage line, what the command does, an example, then the arguments and options, then
// the details and the other examples. Text is broken at word boundaries by src/output/wrap.ts
// (commander wraps its own descriptions the same way); example commands (`  $ assess …`) are
// copied, never wrapped. However narrow, nothing but an unbreakable word (a long flag name) or an
// example is wider than the width.
import { Help, type AddHelpTextContext, type Command, type Option } from 'commander';
import { displayWidth } from '../output/width.js';
import { wrapLine, wrapText } from '../output/wrap.js';

/**
 * The narrowest description column kept beside the terms. Narrower (a narrow terminal, long flag
 * names), each description goes under its term, as clap does, rather than one or two words a
 * line, or running off the screen unwrapped (commander's way below its minimum).
 */
const NARROWEST_BESIDE = 24;
const UNDER_INDENT = '      ';
const USAGE_INDENT = ' '.repeat('Usage: '.length);

// The examples a page leads with, right after its description (a command's first, a group's first of each verb).
const LEADS = new WeakMap<Command, readonly string[]>();

/** `cmd`'s help shows these example commands right after its description. */
export function leadWith(cmd: Command, examples: readonly string[]): void {
  if (examples.length) LEADS.set(cmd, examples);
}

/** A default or choice as people read it: `5`, `127.0.0.1`; quoted only when empty or spaced. */
const shown = (v: unknown) => (typeof v === 'string' && v !== '' && !/\s/.test(v) ? v : JSON.stringify(v));

/** commander's help settings for every command. */
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
    const first = displayWidth(item) <= width ? item : wrapLine(item, width, '    ');
    return `${first}\n${text.replace(/^/gm, UNDER_INDENT)}`;
  },
  /** One way for defaults and choices: `(default: 5)`, `(choices: v3, v2)`. */
  optionDescription(option: Option): string {
    const extra: string[] = [];
    if (option.argChoices) extra.push(`choices: ${option.argChoices.map(shown).join(', ')}`);
    if (option.defaultValue !== undefined && (option.required || option.optional))
      extra.push(`default: ${option.defaultValueDescription ?? shown(option.defaultValue)}`);
    return extra.length ? `${option.description} (${extra.join(', ')})`.trim() : option.description;
  },
  formatHelp(this: Help, cmd: Command, helper: Help): string {
    const width = this.helpWidth ?? 80;
    const sections = Help.prototype.formatHelp.call(this, cmd, helper).replace(/\n+$/, '').split('\n\n');
    const usage = sections[0]!;
    sections[0] = displayWidth(usage) <= width ? usage : wrapLine(usage, width, USAGE_INDENT);
    const lead = LEADS.get(cmd);
    // after the description, where there is one (commander's second section)
    if (lead) sections.splice(cmd.description() ? 2 : 1, 0, `Examples:\n${lead.map((e) => `  $ ${e}`).join('\n')}`);
    // a group's commands before its options: what to run comes before how
    const at = (title: string) => sections.findIndex((s) => s.startsWith(title));
    const [commands, options] = [at('Commands:'), at('Options:')];
    if (commands > options && options > 0) sections.splice(options, 0, ...sections.splice(commands, 1));
    return `${sections.join('\n\n')}\n`;
  },
};

/** `text` with every prose line wider than `width` broken at spaces; example commands are kept whole. */
export function wrapHelpText(text: string, width: number): string {
  return wrapText(text, width, (line) => line.trimStart().startsWith('$ '));
}

/** For `addHelpText('after', …)`: the text wrapped to the help width of the stream it goes to. */
export function wrappedHelp(text: string): (ctx: AddHelpTextContext) => string {
  return ({ error, command }) => {
    const out = command.configureOutput();
    const width = (error ? out.getErrHelpWidth?.() : out.getOutHelpWidth?.()) ?? 80;
    return wrapHelpText(text, width);
  };
}
