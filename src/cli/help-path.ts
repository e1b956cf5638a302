// `assess raport --help`, `assess help tests lst`: commander shows the help of the last command it
// found for a word that names none, and exits 0. A line asking for help names a command, so such a
// word is what it is without `--help`: an unknown command (exit 2, with "Did you mean …?").
import type { Command, Option } from 'commander';
import { definitionOf } from './command.js';

/**
 * Whether `argv` (a line asking for help) has a word where only a subcommand can stand, in a
 * group (a command with subcommands and no action of its own), naming none of them. Read the
 * way commander reads it; anything unclear (an unknown option, `--`) answers false: the help
 * is shown as commander decides.
 */
export function namesNoCommand(argv: string[], program: Command): boolean {
  let cmd = program;
  const options: Option[] = [...program.options];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') continue;
    if (arg === '--') return false;
    if (arg.length > 1 && arg.startsWith('-')) {
      const name = arg.replace(/=.*/s, '');
      const opt = options.find((o) => o.long === name || o.short === name);
      if (!opt || (arg.includes('=') && !arg.startsWith('--'))) return false;
      // commander's rules: a required value is the next word whatever it is; an optional one only
      // when the next word is not an option
      if (arg.includes('=')) continue;
      if (opt.required || (opt.optional && i + 1 < argv.length && !argv[i + 1].startsWith('-'))) i++;
      continue;
    }
    const sub = cmd.commands.find((c) => c.name() === arg || c.aliases().includes(arg));
    if (sub) {
      cmd = sub;
      options.push(...sub.options);
      continue;
    }
    // `help` is commander's own command; a word after a command with arguments is one of them
    return cmd.commands.length > 0 && arg !== 'help' && !definitionOf(cmd);
  }
  return false;
}

/** The line without its help flags (those before `--`). */
export function withoutHelp(argv: string[]): string[] {
  const end = argv.indexOf('--');
  const head = end < 0 ? argv : argv.slice(0, end);
  return [...head.filter((a) => a !== '--help' && a !== '-h'), ...(end < 0 ? [] : argv.slice(end))];
}
