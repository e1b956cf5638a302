// How the completion scripts read the words before the cursor, as commander reads them: a value
// bash split at `:` or `=` (COMP_WORDBREAKS) is one word; a noun after `--json` is the noun; no
// verb after a command's own arguments; no option after `--`. The bash script runs in a real bash
// on lines typed as text (split the way bash splits them), fish's in a real fish; both ask the
// built binary (`assess __complete`).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bashComplete, bashWords, type Typed } from '../helpers/bash-completion.js';
import { fishComplete, hasFish } from '../helpers/fish-completion.js';
import { tempDir } from '../helpers/cli.js';
import { runInProcess as runAssess } from '../helpers/in-process.js';

const STATES = ['complete', 'expire', 'leave', 'start', 'terminate'];
const t = tempDir();
let script: string;
let fish: string;
const fishAt = (...lines: string[]) => fishComplete(fish, lines, { cwd: join(t.dir, 'files'), home: t.dir });
const complete = (...lines: Typed[]) => bashComplete(script, lines, { cwd: join(t.dir, 'files') });

beforeAll(async () => {
  const bash = await runAssess(['completion', 'bash']);
  expect(bash.code, bash.stderr).toBe(0);
  script = join(t.dir, 'assess.bash');
  writeFileSync(script, bash.stdout);
  mkdirSync(join(t.dir, 'files'));
  writeFileSync(join(t.dir, 'files', 'cohort.csv'), '');
  const f = await runAssess(['completion', 'fish']);
  expect(f.code, f.stderr).toBe(0);
  fish = join(t.dir, 'assess.fish');
  writeFileSync(fish, f.stdout);
});
afterAll(() => t.cleanup());

describe('bash: a value with : or = in it is one word', () => {
  it('splits a typed line as bash does (the premise of these tests)', async () => {
    expect(bashWords('assess --url=http://h:4010 9 ')).toEqual([
      'assess',
      '--url',
      '=',
      'http',
      ':',
      '//h',
      ':',
      '4010',
      '9',
      '',
    ]);
    expect(bashWords('assess --url=:4010 x')).toEqual(['assess', '--url', '=:', '4010', 'x']);
  });

  it('counts the arguments after a URL or a time right', async () => {
    const lines = [
      'assess sandbox simulate --url http://127.0.0.1:4010 900100 ',
      'assess sandbox simulate --url=http://127.0.0.1:4010 900100 ',
      'assess sandbox simulate --url :4010 900100 ', // a blank before the `:`: it starts the value
      'assess sandbox simulate --url=:4010 900100 ',
      'assess sandbox simulate 900100 --url http://127.0.0.1:4010 ',
    ];
    for (const [i, got] of (await complete(...lines)).entries())
      expect({ line: lines[i], got }).toEqual({ line: lines[i], got: STATES });
    // after a time (its `:` pieces are one word) and the test id, invite has nothing left to type:
    // its own flags, no file name (the old `--csv FILE` operand is not offered)
    const [afterId] = await complete('assess invite --start 2026-03-01T09:00:00Z 1001 ');
    expect(afterId).toContain('--email');
    expect(afterId).not.toContain('cohort.csv');
  });

  it('offers values after --flag= without repeating what precedes the = (bash keeps it)', async () => {
    const [partial, empty, list] = await complete(
      'assess report export --type=s',
      'assess report export --type=',
      'assess tests list --json=testId,testN',
    );
    expect(partial).toEqual(['skills', 'summary']);
    expect(empty).toEqual(['both', 'skills', 'summary']);
    expect(list).toEqual(['testId,testName']);
    // zsh (bashcompinit) gives the word whole and replaces it whole: the prefix stays
    expect(await bashComplete(script, [['assess', 'report', 'export', '--type=su']])).toEqual([['--type=summary']]);
  });
});

describe('the noun after --json [fields]', () => {
  it('bash: a noun where the noun goes is the noun, as the CLI reads it', async () => {
    const [partial, verb, notNoun] = await complete(
      'assess --json te',
      'assess --json tests l',
      'assess --json testId tests ',
    );
    expect(partial).toEqual(['tests']);
    expect(verb).toEqual(['list']);
    expect(notNoun).toEqual(['get', 'list']); // `testId` was --json's value
  });

  it.skipIf(!hasFish)('fish: the same rule', async () => {
    expect(await fishAt('assess --json te', 'assess --json tests l', 'assess --json testId tests ')).toEqual([
      ['tests'],
      ['list'],
      ['get', 'list'],
    ]);
  });
});

describe('verbs only before the command’s own arguments', () => {
  it('bash: report <id> then no verb, its flags instead', async () => {
    const [before, after] = await complete('assess report ', 'assess report 900100 ');
    expect(before).toEqual(expect.arrayContaining(['export', 'stats']));
    expect(after).not.toContain('export');
    expect(after).not.toContain('stats');
    expect(after).toEqual(expect.arrayContaining(['--type', '--pdf']));
  });

  it.skipIf(!hasFish)('fish: report <id> then no verb', async () => {
    const [before, after] = await fishAt('assess report ', 'assess report 900100 ');
    expect(before).toEqual(expect.arrayContaining(['export', 'stats']));
    expect(after).toEqual([]); // its flags once a - is typed (fish's way)
    expect((await fishAt('assess report 900100 --p'))[0]).toEqual(['--pdf', '--profile']);
  });
});

describe('after -- (end of options)', () => {
  it('bash: no flags, no verbs; operands still complete', async () => {
    const [flags, nothing, verbs, operand] = await complete(
      'assess tests list -- -',
      'assess tests list -- ',
      'assess attempts -- ',
      'assess callbacks verify -- co',
    );
    expect(flags).toEqual([]);
    expect(nothing).toEqual([]);
    expect(verbs).toEqual([]);
    expect(operand).toEqual(['cohort.csv']);
  });

  it.skipIf(!hasFish)('fish: options only before --, arguments after it too', async () => {
    const [flags, verbs, operand, yes] = await fishAt(
      'assess tests list -- -',
      'assess attempts -- ',
      'assess callbacks verify -- co',
      'assess tests list --y',
    );
    expect(flags).toEqual([]);
    expect(verbs).toEqual([]);
    expect(operand).toEqual(['cohort.csv']);
    expect(yes).toEqual(['--yes']);
  });
});
