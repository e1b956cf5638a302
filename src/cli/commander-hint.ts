// What to do next after one of commander's own messages (unknown option or command, a missing or
// extra argument, a bad choice): the help of the command that refused the line, as our own usage
// errors end with a fix.
import type { Command } from 'commander';

/** The line to print after `message`, commander's error raised by `cmd`. */
export function helpHintFor(cmd: Command, message: string): string {
  const path: string[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) path.unshift(c.name());
  const help = `run '${path.join(' ')} --help'`;
  if (/^error: unknown command /.test(message)) return `  ${help} to see ${cmd.parent ? 'its' : 'the'} commands\n`;
  if (!cmd.parent) return `  ${help} to see the global options\n`;
  return `  ${help} to see its ${cmd.registeredArguments.length ? 'arguments and options' : 'options'}\n`;
}

/**
 * commander's message with its suggestion on the same line: `error: unknown option '--emial' (Did you mean --email?)`.
 */
export function oneLine(message: string): string {
  return message.replace(/\n\((Did you mean [^\n]*\?)\)/, ' ($1)');
}
