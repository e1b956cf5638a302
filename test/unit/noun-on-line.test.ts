// The noun a command line runs decides which command module is imported; a wrong answer must be
// "unsure" (every noun is built), never another noun.
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { addGlobalOptions } from '../../src/cli/globals.js';
import { nounOnLine } from '../../src/cli/noun-on-line.js';
import { NOUN_NAMES } from '../../src/commands/index.js';
import { runCli } from '../../src/cli/program.js';
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

  it('reads an optional value as commander does: `--json tests` gives --json the word', () => {
    expect(noun('--json tests list')).toBeUndefined(); // 'list' is no noun: build everything
    expect(noun('--json testId,testName tests list')).toBe('tests');
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
