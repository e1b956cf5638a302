// The layout rule of docs/CONVENTIONS.md: beside a noun's verbs sit only index.ts (the noun) and
// command.ts (the noun's own command); helpers live in shared/ folders, so a file name there is
// always a command.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const COMMANDS = join(import.meta.dirname, '../../src/commands');

describe('src/commands layout', () => {
  it('every file beside the verbs is a command, the noun, or the noun command', () => {
    const misplaced: string[] = [];
    for (const noun of readdirSync(COMMANDS, { withFileTypes: true })) {
      if (!noun.isDirectory() || noun.name === 'shared') continue;
      for (const f of readdirSync(join(COMMANDS, noun.name), { withFileTypes: true })) {
        if (f.isDirectory() || !f.name.endsWith('.ts')) continue;
        const text = readFileSync(join(COMMANDS, noun.name, f.name), 'utf8');
        const ok = f.name === 'index.ts' ? /export default defineNoun\(/.test(text) : /export default defineCommand\(/.test(text);
        if (!ok) misplaced.push(`${noun.name}/${f.name}`);
      }
    }
    expect(misplaced).toEqual([]);
  });

  it('a noun that is itself a command takes it from command.ts', async () => {
    const NOUNS = await (await import('../../src/commands/index.js')).loadNouns();
    for (const n of NOUNS.filter((x) => x.self)) {
      const text = readFileSync(join(COMMANDS, n.name, 'index.ts'), 'utf8');
      expect({ noun: n.name, fromCommandTs: /from '\.\/command\.js'/.test(text) }).toEqual({ noun: n.name, fromCommandTs: true });
    }
  });
});
