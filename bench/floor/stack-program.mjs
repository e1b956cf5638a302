// The commander program both stack floors run: assess's nouns, `tests get <testId>` whose id
// zod/mini checks, and the action each floor gives it with the parsed id. Nothing of ours.
import { Command } from 'commander';
import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';

const NOUNS = 'links invite report attempts settings callbacks config sandbox completion auth timezones'.split(' ');

/** Parses the command line and calls `action(testId, issue)`: `issue` is zod's message for a bad id. */
export function runStackProgram(action) {
  z.config(en());
  z.config({ jitless: true });
  const program = new Command('assess').exitOverride().configureOutput({ writeErr: (s) => process.stderr.write(s) });
  program
    .option('--json [fields]', 'print JSON')
    .option('--profile <name>', 'profile')
    .option('-q, --quiet', 'quiet')
    .option('--debug', 'debug');
  for (const noun of NOUNS) program.command(noun).description(noun);
  const id = z.string().check(z.regex(/^[1-9][0-9]{0,18}$/, 'must be a positive integer id, e.g. 1001'));
  program
    .command('tests')
    .command('get')
    .argument('<testId>')
    .option('--web', 'open in a browser')
    .action((testId) => {
      const r = z.safeParse(z.object({ testId: id }), { testId });
      return action(testId, r.success ? undefined : r.error.issues[0].message);
    });
  return program.parseAsync(process.argv);
}
