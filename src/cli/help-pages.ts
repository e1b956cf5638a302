// Every command's help page as text (docs/commands.md, the tests of help).
import type { Command } from 'commander';

/** The program's own commands, neither nouns nor pages: `help` (program.ts) and `__complete` (complete-command.ts). */
export const PROGRAM_OWN: ReadonlySet<string> = new Set(['help', '__complete']);

/** Every command's --help text, keyed by its path ('' for the program), for docs/commands.md and tests. */
export function helpPages(program: Command): Record<string, string> {
  const pages: Record<string, string> = {};
  const walk = (c: Command, path: string[]) => {
    pages[path.join(' ')] = helpText(c);
    for (const sub of c.commands) if (!PROGRAM_OWN.has(sub.name())) walk(sub, [...path, sub.name()]);
  };
  walk(program, []);
  return pages;
}

// helpInformation() leaves out text added with addHelpText: collect it the way outputHelp does.
function helpText(c: Command): string {
  let out = '';
  const saved = c.configureOutput();
  c.configureOutput({ ...saved, writeOut: (s: string) => (out += s) });
  c.outputHelp();
  c.configureOutput(saved);
  return out;
}
