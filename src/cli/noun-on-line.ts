// Which noun a command line runs, read the way commander will read it, so that only that noun's
// module is imported (src/cli/program.ts). Anything unclear answers undefined and the whole
// command tree is built: the answer only decides what is loaded, never what runs.
import type { Command } from 'commander';

/**
 * Where in `argv` the first word that is not a program option or its value is, or -1 when
 * unsure. `nouns` are never taken as an optional value (below).
 */
function operandIndex(argv: string[], program: Command, nouns: readonly string[]): number {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--' || arg === '-') return -1;
    if (!arg.startsWith('-')) return i;
    if (arg.startsWith('--') && arg.includes('=')) continue; // --profile=work
    const opt = program.options.find((o) => o.long === arg || o.short === arg);
    if (!opt) return -1; // unknown to the program (or -yV…): commander decides, with every command
    // commander's rules: a required value is the next word whatever it is; an optional one
    // (`--json [fields]`) only when the next word is not an option — nor, here, a noun (below)
    if (opt.required) i++;
    else if (opt.optional && i + 1 < argv.length && !argv[i + 1].startsWith('-') && !nouns.includes(argv[i + 1])) i++;
  }
  return -1;
}

/** Where in `argv` the noun is (after the program's own options), or -1 when unsure. */
function nounIndex(argv: string[], program: Command, nouns: readonly string[]): number {
  const i = operandIndex(argv, program, nouns);
  return i >= 0 && nouns.includes(argv[i]) ? i : -1;
}

/**
 * Where `help` stands as the program's command behind its options (`--profile x help raport`:
 * 2), or -1 (also when nothing follows it: `help` alone is commander's own). src/cli/program.ts
 * reads it as when it comes first (`raport --help`).
 */
export function helpWordAt(argv: string[], program: Command, nouns: readonly string[]): number {
  const i = operandIndex(argv, program, nouns);
  return i >= 0 && argv[i] === 'help' && i + 1 < argv.length ? i : -1;
}

/**
 * `assess --json tests list`: commander would take `tests` as --json's fields and then fail on
 * `list`. A noun right after a program option whose value is optional is the noun: the option
 * is given as `--json=` (an empty value, which means no value: every field).
 */
export function nounNotOptionValue(argv: string[], program: Command, nouns: readonly string[]): string[] {
  const i = nounIndex(argv, program, nouns);
  if (i < 1) return argv;
  const opt = program.options.find((o) => o.long === argv[i - 1] || o.short === argv[i - 1]);
  if (!opt?.optional || !opt.long) return argv;
  return [...argv.slice(0, i - 1), `${opt.long}=`, ...argv.slice(i)];
}

/** The noun `argv` names after the program's own options, or undefined when unsure. */
export function nounOnLine(argv: string[], program: Command, nouns: readonly string[]): string | undefined {
  const i = nounIndex(argv, program, nouns);
  return i < 0 ? undefined : argv[i];
}

/**
 * The first word after the noun that is not an option (`get` in `tests --json get 1001`): the verb
 * when the noun has one by that name. It may be an option's value instead (`tests --profile work
 * get`); src/commands/index.ts then loads every verb, so a wrong word costs time, never behaviour.
 */
export function wordAfterNoun(argv: string[], program: Command, nouns: readonly string[]): string | undefined {
  const i = nounIndex(argv, program, nouns);
  return i < 0 ? undefined : argv.slice(i + 1).find((w) => !w.startsWith('-'));
}

/** Whether the line asks for help (`--help`, `-h`; `help …` is rewritten to `… --help`). */
export function asksForHelp(argv: string[]): boolean {
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).some((a) => a === '--help' || a === '-h');
}
