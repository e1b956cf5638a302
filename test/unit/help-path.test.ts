// A line asking for help names a command: a word where only a subcommand can stand that names
// none is an unknown command, as it is without --help.
import { describe, expect, it } from 'vitest';
import { namesNoCommand, withoutHelp } from '../../src/cli/help-path.js';
import { buildProgram } from '../../src/cli/program.js';
import { tempDir } from '../helpers/cli.js';
import { memoryProcess } from '../helpers/memory-io.js';

const rt = {
  proc: memoryProcess({ ASSESS_CONFIG_DIR: tempDir().dir }),
  signal: new AbortController().signal,
  debug: false,
  exitHooks: [],
};
const program = await buildProgram(rt);
const unknown = (line: string) => namesNoCommand([...line.split(' '), '--help'], program);

describe('namesNoCommand', () => {
  it('a word naming no command of a group, at any depth, after any option', () => {
    expect(unknown('raport')).toBe(true);
    expect(unknown('tests lst')).toBe(true);
    expect(unknown('--profile work raport')).toBe(true); // --profile takes a value
    expect(unknown('--json=testId raport')).toBe(true);
    expect(unknown('tests --profile work lst')).toBe(true);
    expect(unknown('callbacks sned')).toBe(true);
  });

  it('not a command path, or a word commander reads otherwise: false', () => {
    expect(unknown('tests list')).toBe(false);
    expect(unknown('tests')).toBe(false);
    expect(unknown('report 900001')).toBe(false); // report takes an argument
    expect(unknown('tests list extra')).toBe(false); // a verb's (excess) argument
    expect(unknown('--json raport')).toBe(false); // --json's fields
    expect(unknown('--profile raport')).toBe(false);
    expect(unknown('--bogus raport')).toBe(false); // an unknown option: commander decides
    expect(unknown('-- raport')).toBe(false);
    expect(unknown('help')).toBe(false); // commander's own help command
  });
});

describe('withoutHelp', () => {
  it('drops the help flags before `--` only', () => {
    expect(withoutHelp(['tests', '-h', 'lst', '--help', '--', '--help'])).toEqual(['tests', 'lst', '--', '--help']);
  });
});
