// The stack's own floor for a command that sends nothing: a commander program with the same
// nouns, one verb whose argument zod/mini checks, the usage error on stderr and exit 2. Nothing
// of ours. bench/latency.mjs bundles it like dist/cli.cjs (CommonJS, whitespace and syntax
// minified) and starts it through Node's compile cache, like bin/assess.cjs.
import { Command } from 'commander';
import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';

z.config(en());
z.config({ jitless: true });
const program = new Command('assess').exitOverride().configureOutput({ writeErr: (s) => process.stderr.write(s) });
program
  .option('--json [fields]', 'print JSON')
  .option('--profile <name>', 'profile')
  .option('-q, --quiet', 'quiet')
  .option('--debug', 'debug');
for (const noun of [
  'links',
  'invite',
  'report',
  'attempts',
  'settings',
  'callbacks',
  'config',
  'sandbox',
  'completion',
  'auth',
  'timezones',
])
  program.command(noun).description(noun);
const id = z.string().check(z.regex(/^[1-9][0-9]{0,18}$/, 'must be a positive integer id, e.g. 1001'));
program
  .command('tests')
  .command('get')
  .argument('<testId>')
  .option('--web', 'open in a browser')
  .action((testId) => {
    const r = z.safeParse(z.object({ testId: id }), { testId });
    if (r.success) return;
    process.stderr.write(`error: <testId>: ${r.error.issues[0].message} (got ${JSON.stringify(testId)})\n`);
    process.exitCode = 2;
  });
program.parse(process.argv);
