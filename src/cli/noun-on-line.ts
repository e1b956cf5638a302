// Which noun a command line runs, read the way commander will read it, so that only that noun's
// module is imported (src/cli/program.ts). Anything unclear answers undefined and the whole
// command tree is built: the answer only decides what is loaded, never what runs.
import type { Command } from 'commander';

/** The noun `argv` names after the program's own options, or undefined when unsure. */
export function nounOnLine(argv: string[], program: Command, nouns: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--' || arg === '-') return undefined;
    if (!arg.startsWith('-')) return nouns.includes(arg) ? arg : undefined;
    if (arg.startsWith('--') && arg.includes('=')) continue; // --profile=work
    const opt = program.options.find((o) => o.long === arg || o.short === arg);
    if (!opt) return undefined; // unknown to the program (or -yV…): commander decides, with every command
    // commander's rules: a required value is the next word whatever it is; an optional one
    // (`--json [fields]`) only when the next word is not an option
    if (opt.required) i++;
    else if (opt.optional && i + 1 < argv.length && !argv[i + 1].startsWith('-')) i++;
  }
  return undefined;
}
