// The noun a command line runs decides which command module is imported; a wrong answer must be
// "unsure" (every noun is built), never another noun.
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { addGlobalOptions } from '../../src/cli/globals.js';
import { nounNotOptionValue, nounOnLine, wordAfterNoun } from '../../src/cli/noun-on-line.js';
import { definitionOf } from '../../src/cli/command.js';
import { NOUN_NAMES } from '../../src/commands/index.js';
import { buildProgram, runCli } from '../../src/cli/program.js';
import { tempDir } from '../helpers/cli.js';
import { memoryProcess } from '../helpers/memory-io.js';

const program = new Command('assess');
addGlobalOptions(program);
const noun = (line: string) => nounOnLine(line.split(' ').filter(Boolean), program, NOUN_NAMES);

describe('nounOnLine', () => {
  it('finds the noun after the global options, skipping their values', () => {
    expect(noun('tests list')).toBe('tests');
    expect(noun('--profile tests links list 1001')).toBe('links'); // --profile takes a value
    expect(noun('--timeout 5 -y --sandbox report 900001')).toBe('report');
    expect(noun('--json=testId tests list')).toBe('tests');
    expect(noun('--json --csv tests list')).toBe('tests');
  });

  it('reads an optional value as commander does, unless the word is a noun', () => {
    expect(noun('--json testId,testName tests list')).toBe('tests');
    expect(noun('--json tests list')).toBe('tests'); // `tests` is the noun, not --json's fields
    expect(noun('--json list tests')).toBe('tests'); // `list` is --json's value
  });

  it('is unsure (undefined) about unknown options, unknown words, `--` and no noun', () => {
    expect(noun('--bogus tests list')).toBeUndefined();
    expect(noun('tset list')).toBeUndefined();
    expect(noun('-- tests list')).toBeUndefined();
    expect(noun('--profile work')).toBeUndefined();
    expect(noun('')).toBeUndefined();
  });
});

describe('runCli with one noun loaded', () => {
  it('still suggests other nouns and finds verbs of the loaded one', async () => {
    const dir = tempDir().dir;
    const p = memoryProcess({ ASSESS_CONFIG_DIR: dir });
    expect(await runCli(['tset', 'list'], p)).toBe(2);
    expect(p.err()).toContain('Did you mean tests?');
    const q = memoryProcess({ ASSESS_CONFIG_DIR: dir });
    expect(await runCli(['tests', 'lsit'], q)).toBe(2);
    expect(q.err()).toContain('Did you mean list?');
  });
});

describe('nounNotOptionValue', () => {
  const line = (l: string) => nounNotOptionValue(l.split(' '), program, NOUN_NAMES).join(' ');
  it('gives --json no value when a noun follows it, and leaves every other line alone', () => {
    expect(line('--json tests list')).toBe('--json= tests list');
    expect(line('--profile work --json links list 1001')).toBe('--profile work --json= links list 1001');
    expect(line('--json testId tests list')).toBe('--json testId tests list');
    expect(line('--profile tests links list')).toBe('--profile tests links list'); // a required value
    expect(line('tests list --json')).toBe('tests list --json');
  });

  it('runs `assess --json tests list` as `assess tests list --json` (it was: unknown command list)', async () => {
    const dir = tempDir().dir;
    const p = memoryProcess({ ASSESS_CONFIG_DIR: dir });
    expect(await runCli(['--json', 'tests', 'list', '--query', 'x'], p)).toBe(3); // no key: it got past the parse
    expect(p.err()).not.toMatch(/unknown command|--query and --json/);
  });
});

describe('wordAfterNoun', () => {
  const word = (line: string) => wordAfterNoun(line.split(' ').filter(Boolean), program, NOUN_NAMES);
  it('is the first word after the noun that is not an option', () => {
    expect(word('tests get 1001')).toBe('get');
    expect(word('--profile tests links --json list 1001')).toBe('list');
    expect(word('report 900001')).toBe('900001');
    expect(word('tests --profile work get')).toBe('work'); // a value: not a verb, so every verb is loaded
    expect(word('tests')).toBeUndefined();
    expect(word('tset get')).toBeUndefined();
  });
});

describe('only the verb on the line is loaded', () => {
  const built = async (line: string) => {
    const rt = {
      proc: memoryProcess({ ASSESS_CONFIG_DIR: tempDir().dir }),
      signal: new AbortController().signal,
      debug: false,
      exitHooks: [],
    };
    const program = await buildProgram(rt, line.split(' '));
    const out: Record<string, string[]> = {};
    for (const noun of program.commands) {
      const verbs = noun.commands.filter((v) => definitionOf(v)).map((v) => v.name());
      if (verbs.length || definitionOf(noun)) out[noun.name()] = verbs;
    }
    return out;
  };

  it('a verb named: that verb alone; a noun that is a command: none of its verbs unless named', async () => {
    expect(await built('tests get abc')).toEqual({ tests: ['get'] });
    expect(await built('sandbox serve --port 0')).toEqual({ sandbox: ['serve'] });
    expect(await built('report 900001')).toEqual({ report: [] });
    expect(await built('report stats --from 7d')).toEqual({ report: ['stats'] });
  });

  it('no verb, or a word that is none: every verb (help and suggestions list them)', async () => {
    expect(await built('tests')).toEqual({ tests: ['list', 'get'] });
    expect(await built('tests lsit')).toEqual({ tests: ['list', 'get'] });
  });

  it('a line asking for help: every verb of the noun (its help lists them with their usage)', async () => {
    expect(await built('report --help')).toEqual({ report: ['export', 'stats'] });
    expect(await built('report -q -h')).toEqual({ report: ['export', 'stats'] });
    expect(await built('report 900001 -- --help')).toEqual({ report: [] }); // a word, not a flag
  });

  it('a wrong guess costs time, not behaviour: the verb commander reaches is built then', async () => {
    // `--profile` takes `export` as its value, so the verb is `stats`, which was not loaded
    const p = memoryProcess({ ASSESS_CONFIG_DIR: tempDir().dir });
    expect(await runCli(['report', '--profile', 'export', 'stats', '--from', 'bogus'], p)).toBe(2);
    expect(p.err()).toMatch(/^error: --from: 'bogus' is not a time/);
  });
});
