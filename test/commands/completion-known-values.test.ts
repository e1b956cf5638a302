// Values completion offers because they are known: the --json fields a command's help lists
// (also where they depend on its flags: invite, report), the tools of `mcp --allow-writes`, the
// keys of `settings set --set`, the profiles of the config file (read when completing), and of a
// comma-separated list only the words not typed yet. The bash script runs in a real bash, the fish
// one in a real fish; both ask the built binary (`assess __complete`).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settingKeyList } from '../../src/commands/settings/shared/apply.js';
import { WRITE_TOOLS } from '../../src/mcp/catalogue.js';
import { bashComplete, type Typed } from '../helpers/bash-completion.js';
import { fishComplete, hasFish } from '../helpers/fish-completion.js';
import { tempDir } from '../helpers/cli.js';
import { runInProcess as runAssess } from '../helpers/in-process.js';

const t = tempDir();
let script: string;
let fish: string;
const fishAt = (...lines: string[]) => fishComplete(fish, lines, { cwd: t.dir, home: t.dir });
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
  fish = join(t.dir, 'assess.fish');
  writeFileSync(fish, (await runAssess(['completion', 'fish'])).stdout);
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
      expect((await complete(line))[0]).toEqual([...listed].sort());
    }
    if (hasFish)
      expect((await fishAt('assess invite 1001 --json '))[0]).toEqual(
        (await complete('assess invite 1001 --json '))[0],
      );
  });

  it('offers only the fields not in the list yet', async () => {
    const [second, third] = await complete(
      'assess invite 1001 --json status,',
      'assess invite 1001 --json status,testUrl,',
    );
    expect(second).toEqual(['status,emailed', 'status,testInvitationId', 'status,testUrl']);
    expect(third).toEqual(['status,testUrl,emailed', 'status,testUrl,testInvitationId']);
  });
});

describe('fixed and known values', () => {
  it('mcp --allow-writes: the write tools, as a comma-separated list', async () => {
    const [all, more] = await complete('assess mcp --allow-writes ', 'assess mcp --allow-writes invite,');
    expect(all).toEqual([...WRITE_TOOLS].sort());
    expect(more).toEqual(
      WRITE_TOOLS.filter((w) => w !== 'invite')
        .map((w) => `invite,${w}`)
        .sort(),
    );
    if (hasFish) expect((await fishAt('assess mcp --allow-writes '))[0]).toEqual([...WRITE_TOOLS].sort());
  });

  it('settings set --set: the setting keys, followed by =; the value is free', async () => {
    const [all, some, value] = await complete(
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
    if (hasFish) expect((await fishAt('assess settings set 1001 --set questionSettings.rand'))[0]).toEqual(some);
  });

  it('--profile: the names `assess auth list --json profile` prints, read when completing', async () => {
    const config = join(t.dir, 'config');
    mkdirSync(config);
    writeFileSync(join(config, 'config.json'), JSON.stringify({ profiles: { work: {}, 'eu.prod_2': {} } }), {
      mode: 0o600,
    });
    const env = { ASSESS_CONFIG_DIR: config };
    const got = await bashComplete(script, ['assess --profile ', 'assess --profile w', 'assess tests --profile '], {
      cwd: t.dir,
      env,
    });
    expect(got).toEqual([['default', 'eu.prod_2', 'work'], ['work'], ['default', 'eu.prod_2', 'work']]);
    // the profile in use comes first in `auth list`, also one not stored yet
    const staging = await bashComplete(script, ['assess --profile '], {
      cwd: t.dir,
      env: { ...env, ASSESS_PROFILE: 'qa' },
    });
    expect(staging).toEqual([['eu.prod_2', 'qa', 'work']]);
    if (hasFish)
      expect(await fishComplete(fish, ['assess --profile w'], { cwd: t.dir, home: t.dir, env })).toEqual([['work']]);
  });
});
