// Which command lines dist/main.cjs hands to the local program (src/cli/local-program.ts): only
// those whose first word is a local noun and that never mention --sandbox.
import { describe, expect, it } from 'vitest';
import { isLocalLine, LOCAL_NOUNS } from '../../src/cli/local-program.js';
import { NOUN_NAMES } from '../../src/commands/index.js';

describe('isLocalLine', () => {
  it('takes config and auth lines', () => {
    expect(isLocalLine(['config', 'list'])).toBe(true);
    expect(isLocalLine(['config', 'set', 'output', 'json', '--profile', 'ci'])).toBe(true);
    expect(isLocalLine(['auth', 'status', '--json'])).toBe(true);
  });

  it('leaves every other line to the full program', () => {
    expect(isLocalLine([])).toBe(false);
    expect(isLocalLine(['tests', 'list'])).toBe(false);
    expect(isLocalLine(['--profile', 'ci', 'config', 'list'])).toBe(false); // a global option first
    expect(isLocalLine(['--sandbox', 'auth', 'status'])).toBe(false);
    expect(isLocalLine(['auth', 'status', '--sandbox'])).toBe(false); // the sandbox is not in it
    expect(isLocalLine(['configure'])).toBe(false);
  });

  it('names nouns that exist', () => {
    for (const noun of LOCAL_NOUNS) expect(NOUN_NAMES).toContain(noun);
  });
});
