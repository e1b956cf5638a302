// Values completion offers because they are known: the --json fields a command's help lists
// (also where they depend on its flags: invite, report), the tools of `mcp --allow-writes`, the
// keys of `settings set --set`, the profiles of the config file (read when completing), and of a
// comma-separated list only the words not typed yet. The bash script runs in a real bash; fish is
// not installed here, so its lines are checked as text.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settingKeyList } from '../../src/commands/settings/shared/apply.js';
import { WRITE_TOOLS } from '../../src/mcp/catalogue.js';
import { bashComplete, type Typed } from '../helpers/bash-completion.js';
import { tempDir } from '../helpers/cli.js';
import { runInProcess as runAssess } from '../helpers/in-process.js';

const t = tempDir();
let script: string;
let fish: string[];
const complete = (...lines: Typed[]) => bashComplete(script, lines, { cwd: t.dir });

/** The field names a command's --help lists under "Fields". */
async function helpFields(args: string[]): Promise<string[]> {
  const help = (await runAssess([...args, '--help'])).stdout;
  const block = help.slice(help.indexOf('\nFields ('));
  return block
    .split('\n')
    .slice(2)
    .filter((l) => /^ {2}\S/.test(l))
    .map((l) => l.trim().split(/\s+/)[0]!);
}

beforeAll(async () => {
  const bash = await runAssess(['completion', 'bash']);
  expect(bash.code, bash.stderr).toBe(0);
  script = join(t.dir, 'assess.bash');
  writeFileSync(script, bash.stdout);
  fish = (await runAssess(['completion', 'fish'])).stdout.split('\n');
});
afterAll(() => t.cleanup());

describe('--json fields', () => {
  it('invite and report (fields chosen by their flags) offer the list their help prints', async () => {
    for (const [line, args] of [
      ['assess invite 1001 --json ', ['invite']],
      ['assess report 900001 --json ', ['report']],
    ] as const) {
      const listed = await helpFields([...args]);
      expect(listed.length).toBeGreaterThan(2);
      expect(complete(line)[0]).toEqual([...listed].sort());
    }
    expect(fish).toContain(
      `complete -c assess -n '__assess_at \\'invite\\'' -l json -a 'testInvitationId testUrl status emailed'`,
    );
  });

  it('offers only the fields not in the list yet', () => {
    const [second, third] = complete('assess invite 1001 --json status,', 'assess invite 1001 --json status,testUrl,');
    expect(second).toEqual(['status,emailed', 'status,testInvitationId', 'status,testUrl']);
    expect(third).toEqual(['status,testUrl,emailed', 'status,testUrl,testInvitationId']);
  });
});

describe('fixed and known values', () => {
  it('mcp --allow-writes: the write tools, as a comma-separated list', () => {
    const [all, more] = complete('assess mcp --allow-writes ', 'assess mcp --allow-writes invite,');
    expect(all).toEqual([...WRITE_TOOLS].sort());
    expect(more).toEqual(
      WRITE_TOOLS.filter((w) => w !== 'invite')
        .map((w) => `invite,${w}`)
        .sort(),
    );
    expect(fish.find((l) => l.includes('-l allow-writes'))).toContain(`-a '${WRITE_TOOLS.join(' ')}'`);
  });

  it('settings set --set: the setting keys, followed by =; the value is free', () => {
    const [all, some, value] = complete(
      'assess settings set 1001 --set ',
      'assess settings set 1001 --set questionSettings.rand',
      'assess settings set 1001 --set questionSettings.randomQuestions=',
    );
    expect(all).toEqual(
      settingKeyList()
        .map((k) => `${k}=`)
        .sort(),
    );
    expect(some).toEqual(['questionSettings.randomAnswers=', 'questionSettings.randomQuestions=']);
    expect(value).toEqual([]);
    expect(fish.find((l) => l.includes('-l set '))).toContain('questionSettings.randomQuestions=');
  });

  it('--profile: the names `assess auth list --json profile` prints, asked when completing', () => {
    // an `assess` on PATH that answers that one command (the built binary's output is checked in
    // test/e2e/completion-binary.test.ts)
    const bin = join(t.dir, 'bin');
    mkdirSync(bin);
    const printed = '[\n  {"profile":"default"},\n  {"profile":"work"},\n  {"profile":"eu.prod_2"}\n]';
    writeFileSync(
      join(bin, 'assess'),
      `#!/bin/sh\n[ "$*" = "auth list --json profile" ] && printf '%s\\n' '${printed}'\n`,
    );
    chmodSync(join(bin, 'assess'), 0o755);
    const got = bashComplete(script, ['assess --profile ', 'assess --profile w', 'assess tests --profile '], {
      cwd: t.dir,
      prelude: `PATH=${bin}:$PATH`,
    });
    expect(got).toEqual([['default', 'eu.prod_2', 'work'], ['work'], ['default', 'eu.prod_2', 'work']]);
    expect(fish.find((l) => l.includes('-l profile'))).toContain('command assess auth list --json profile');
  });
});
