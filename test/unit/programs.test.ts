// Which command lines dist/main.cjs hands to a family's program (src/cli/programs.ts): those whose
// first word is one of its nouns and that never mention --sandbox; every other line runs the
// whole program.
import { describe, expect, it } from 'vitest';
import { programFor, PROGRAMS } from '../../src/cli/programs.js';
import { NOUN_NAMES } from '../../src/commands/index.js';

describe('programFor', () => {
  it('takes a line by its first word', () => {
    expect(programFor(['config', 'list'])).toBe('cli-local.cjs');
    expect(programFor(['auth', 'status', '--json'])).toBe('cli-local.cjs');
    expect(programFor(['tests', 'get', '1001', '--json'])).toBe('cli-tests.cjs');
    expect(programFor(['reattempt', '900001', '--start', 'now'])).toBe('cli-attempts.cjs');
    expect(programFor(['report', 'export', '--from', '7d', '--out', 'r'])).toBe('cli-report.cjs');
    expect(programFor(['sandbox', 'serve', '--port', '0'])).toBe('cli-sandbox.cjs');
  });

  it('gives `completion` its own program only for a word that is no shell (a usage error)', () => {
    expect(programFor(['completion', 'nope'])).toBe('cli-completion.cjs');
    expect(programFor(['completion', 'nope', '--no-color'])).toBe('cli-completion.cjs');
    // a script is generated from every noun's commands: the whole program
    for (const shell of ['bash', 'zsh', 'fish']) expect(programFor(['completion', shell, '--no-color'])).toBeUndefined();
    expect(programFor(['completion', '--no-color', 'bash'])).toBeUndefined(); // a flag first: the shell may follow
    expect(programFor(['completion', '--help'])).toBeUndefined();
  });

  it('leaves every other line to the whole program', () => {
    expect(programFor([])).toBeUndefined();
    expect(programFor(['--profile', 'ci', 'config', 'list'])).toBeUndefined(); // a global option first
    expect(programFor(['--sandbox', 'tests', 'list'])).toBeUndefined();
    expect(programFor(['tests', 'list', '--sandbox'])).toBeUndefined(); // the embedded sandbox is in no family
    expect(programFor(['sandbox', 'reset', '--sandbox', '--yes'])).toBeUndefined();
    for (const noun of ['api', 'completion']) expect(programFor([noun])).toBeUndefined();
    expect(programFor(['configure'])).toBeUndefined();
  });

  it('names nouns that exist, each in one family, with a warm-up of its own commands', () => {
    const seen = PROGRAMS.flatMap((p) => p.nouns);
    expect(new Set(seen).size).toBe(seen.length);
    for (const p of PROGRAMS) {
      expect(p.file).toMatch(/^cli-[a-z]+\.cjs$/);
      for (const noun of p.nouns) expect(NOUN_NAMES).toContain(noun);
      for (const line of p.warmUp) expect(p.nouns).toContain(line[0]);
    }
  });
});
