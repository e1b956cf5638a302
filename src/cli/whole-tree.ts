// A run builds only the noun on its command line, and within it the verb on the line
// (src/cli/program.ts); the other nouns and verbs are placeholders. Whatever turns out to need
// every command — commander reaching a placeholder, `completion <shell>` reading the tree —
// throws WholeTreeNeeded before anything ran, and the line is parsed again with the whole tree
// built.
import type { Command } from 'commander';

export class WholeTreeNeeded extends Error {}

const placeholders = new WeakSet<Command>();

export function markPlaceholder(noun: Command): Command {
  placeholders.add(noun);
  return noun;
}

/** Whether every noun and verb of `program` is built (none is a placeholder). */
export function isWholeTree(program: Command): boolean {
  return !program.commands.some((c) => placeholders.has(c) || !isWholeTree(c));
}
