// `assess __complete -- <word…>`: what the completion scripts ask at each Tab (the design of gh's
// cobra): the script stays small and the program reads the line, building only the nouns on it.
// Hidden. It prints candidates only, never an error: a Tab must not write over the line.
import { Command } from 'commander';
import type { Runtime } from './context-factory.js';
import type { Tree } from './tree.js';

export function completeCommand(tree: Tree, rt: Runtime): Command {
  return new Command('__complete')
    .argument('[words...]')
    .helpOption(false)
    .allowUnknownOption()
    .action(async (words: string[]) => {
      const { complete, printed, profileNames } = await import('./completion/complete.js');
      const where = {
        program: tree.program,
        fill: (c: Command) => tree.fill(c),
        profiles: () => profileNames(rt.proc.env),
      };
      let answer = ':\n';
      try {
        answer = printed(await complete(where, words));
      } catch {
        // nothing to offer (an unreadable config file, say): the Tab does nothing
      }
      rt.proc.stdout.write(answer);
    });
}
