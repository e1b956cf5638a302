// The build's help snapshot hook (scripts/build.mjs): ASSESS_DUMP_HELP=1 alone, left in a user's
// environment, never turns a command into a help dump; the build asks with the argument too.
import { describe, expect, it } from 'vitest';
import { HELP_DUMP_ARG } from '../../src/cli/program.js';
import { runInProcess as runAssess } from '../helpers/in-process.js';

describe('ASSESS_DUMP_HELP', () => {
  it('alone, commands run as usual', async () => {
    const r = await runAssess(['--sandbox', '-q', 'tests', 'list', '--json', 'testId'], {
      env: { ASSESS_DUMP_HELP: '1' },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toContainEqual({ testId: 1001 });
  });

  it('with the build argument, every help page as JSON (what dist/help.json holds)', async () => {
    const r = await runAssess([HELP_DUMP_ARG], { env: { ASSESS_DUMP_HELP: '1' } });
    expect(r.code, r.stderr).toBe(0);
    const pages = JSON.parse(r.stdout) as Record<string, string>;
    expect(pages['']).toMatch(/^Usage: assess /);
    expect(pages['tests list']).toMatch(/^Usage: assess tests list /);
  });

  it('the argument without the variable is an unknown option (exit 2)', async () => {
    const r = await runAssess([HELP_DUMP_ARG]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`unknown option '${HELP_DUMP_ARG}'`);
  });
});
