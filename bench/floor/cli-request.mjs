// The stack's own floor for a one-request command: the commander program of cli-usage-error.mjs
// (same nouns, zod/mini checks the id), then one undici `request` and the JSON printed. Nothing
// of ours. bench/latency.mjs bundles it like dist/cli.cjs, with undici a bundle apart loaded on
// the request (as dist/vendor/undici.cjs is), and starts it through Node's compile cache.
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
  .action(async (testId) => {
    const r = z.safeParse(z.object({ testId: id }), { testId });
    if (!r.success) throw new Error(r.error.issues[0].message);
    const { request } = await import('undici');
    const { body } = await request(new URL(`/v3/tests/${testId}`, process.env.ASSESS_BASE_URL), {
      headers: { 'X-API-KEY': process.env.ASSESS_API_KEY },
    });
    process.stdout.write(`${JSON.stringify(await body.json(), null, 2)}\n`);
  });
program.parseAsync(process.argv);
