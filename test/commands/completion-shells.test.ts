// Completion in the shells themselves: the fish script sourced in a real fish and asked with
// `complete -C 'assess …'` (what fish runs on Tab), next to the bash script in a real bash. fish
// completes nouns, verbs and values as bash does; and no shell offers file names where an
// argument is not a file — every positional argument of every command is tried in a directory
// holding a file. Skips, saying why, only when fish is not installed (`apt-get install -y fish`;
// CI installs it in .ci/run).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import { collect, type CompletionTree } from '../../src/cli/completion/collect.js';
import { bashComplete } from '../helpers/bash-completion.js';
import { fishComplete as fishLines, hasFish } from '../helpers/fish-completion.js';
import { tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { memoryProcess } from '../helpers/memory-io.js';

if (!hasFish)
  console.warn(
    'completion-shells.test.ts: fish cases SKIPPED — no fish on PATH; install it with: apt-get install -y fish',
  );

const FILE = 'zz-marker.csv'; // the one file of the directory completion runs in
const work = tempDir('assess-shells-');
const cwd = join(work.dir, 'cwd');
let fishScript = '';
let bashScript = '';
let tree: CompletionTree;

beforeAll(async () => {
  mkdirSync(cwd);
  writeFileSync(join(cwd, FILE), '');
  for (const shell of ['fish', 'bash'] as const) {
    const r = await runInProcess(['completion', shell]);
    expect(r.code, r.stderr).toBe(0);
    writeFileSync(join(work.dir, `assess.${shell}`), r.stdout);
  }
  fishScript = join(work.dir, 'assess.fish');
  bashScript = join(work.dir, 'assess.bash');
  const rt = { proc: memoryProcess({}), signal: new AbortController().signal, debug: false, exitHooks: [] };
  tree = await collect((await Promise.resolve(buildProgram(rt))) as Command);
});
afterAll(() => work.cleanup());

const fishComplete = (lines: string[]) => fishLines(fishScript, lines, { cwd, home: work.dir });

describe.skipIf(!hasFish)('fish completes as bash does', () => {
  it('nouns, verbs and values', async () => {
    const [nouns, partial, verbs, type, output, linkType, verbsOfAttempts] = await fishComplete([
      'assess ',
      'assess te',
      'assess tests ',
      'assess report --type ',
      'assess config set output ',
      'assess links create 1001 --type ',
      'assess attempts ',
    ]);
    expect(nouns).toEqual(expect.arrayContaining(['auth', 'invite', 'report', 'tests', 'help']));
    expect(nouns).not.toContain(FILE);
    expect(partial).toEqual(['tests']);
    expect(verbs).toEqual(['get', 'list']);
    expect(type).toEqual(['both', 'skills', 'summary']);
    expect(output).toEqual(['csv', 'json', 'ndjson', 'table', 'tsv']);
    expect(linkType).toEqual(['email', 'open']);
    expect(verbsOfAttempts).toEqual(['cancel', 'list', 'wait']);
  });

  it('the same words as bash at each of these places', async () => {
    const lines = [
      ['tests', ''],
      ['report', '--type', ''],
      ['attempts', 'list', '--state', ''],
      ['config', 'set', 'output', ''],
      ['completion', ''],
    ];
    const fish = await fishComplete(lines.map((w) => `assess ${w.join(' ')}`));
    const bash = await bashComplete(
      bashScript,
      lines.map((w) => ['assess', ...w]),
      { cwd },
    );
    expect(fish).toEqual(bash);
  });

  it('file names where a file is asked for, none after the test id of invite', async () => {
    const [fromCsv, afterId, afterFlags] = await fishComplete([
      'assess invite 1001 --from-csv ',
      'assess invite 1001 ',
      'assess invite 1001 --email ann@example.com --name Ann ',
    ]);
    expect(fromCsv).toEqual([FILE]);
    expect(afterId).toEqual([]);
    expect(afterFlags).toEqual([]);
  });
});

describe('no shell offers file names where an argument is not a file', () => {
  /** Every positional place of every command: the words before it, and whether it takes a file. */
  const places = () =>
    tree.commands
      .filter((c) => c.path.length && !c.subcommands.length)
      .flatMap((c) =>
        [...c.args, undefined].map((a, n) => {
          // past the last argument: more of it when it is variadic, else nothing to type
          const at = a ?? (c.args.at(-1)?.variadic ? c.args.at(-1) : undefined);
          const file = at?.completes.kind === 'file' || at?.completes.kind === 'dir';
          return { words: [...c.path, ...Array<string>(n).fill('1001')], file };
        }),
      )
      .filter((p) => !p.file);

  it('bash: every command, every argument', async () => {
    const ps = places();
    expect(ps.length).toBeGreaterThan(60);
    const got = await bashComplete(
      bashScript,
      ps.map((p) => ['assess', ...p.words, '']),
      { cwd },
    );
    expect(ps.filter((_, i) => got[i]!.includes(FILE)).map((p) => p.words.join(' '))).toEqual([]);
    expect(got[ps.findIndex((p) => p.words.join(' ') === 'invite 1001')]).not.toContain(FILE);
  });

  it.skipIf(!hasFish)('fish: every command, every argument', async () => {
    const ps = places();
    const got = await fishComplete(ps.map((p) => `assess ${p.words.join(' ')} `));
    expect(ps.filter((_, i) => got[i]!.includes(FILE)).map((p) => p.words.join(' '))).toEqual([]);
  });
});
