// The layout rule of docs/CONVENTIONS.md: beside a noun's verbs sit only index.ts (the noun) and
// command.ts (the noun's own command); helpers live in shared/ folders, so a file name there is
// always a command. Nouns are rooms: a file under src/commands/<noun>/ imports nothing of another
// noun, and src/commands/shared/ (what nouns share) imports no noun. Below src/commands, only its
// index is imported (the program and `assess mcp` load nouns through it).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '../../src');
const COMMANDS = join(SRC, 'commands');

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );

/** The room a path under src/commands belongs to: a noun, 'shared', or null (src/commands/index.ts, or outside). */
function roomOf(root: string, path: string): string | null {
  const parts = relative(root, path).split(sep);
  return parts.length > 1 && parts[0] !== '..' ? parts[0]! : null;
}

/**
 * Every import that leaves its room: static, dynamic and type-only (`import('…')` in a type), as
 * `file → specifier`. A noun may import its own files, src/commands/shared/ and the layers below
 * src/commands (api, output, cli…); shared/ may import only itself and those layers.
 */
function crossings(root = COMMANDS): string[] {
  const out: string[] = [];
  for (const file of filesUnder(root)) {
    const from = roomOf(root, file);
    if (from === null) continue;
    for (const { fileName: spec } of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      if (!spec.startsWith('.')) continue;
      const to = roomOf(root, resolve(dirname(file), spec));
      if (to === null || to === from || (to === 'shared' && from !== 'shared')) continue;
      out.push(`${relative(root, file).split(sep).join('/')} → ${spec}`);
    }
  }
  return out;
}

describe('src/commands layout', () => {
  it('every file beside the verbs is a command, the noun, or the noun command', () => {
    const misplaced: string[] = [];
    for (const noun of readdirSync(COMMANDS, { withFileTypes: true })) {
      if (!noun.isDirectory() || noun.name === 'shared') continue;
      for (const f of readdirSync(join(COMMANDS, noun.name), { withFileTypes: true })) {
        if (f.isDirectory() || !f.name.endsWith('.ts')) continue;
        const text = readFileSync(join(COMMANDS, noun.name, f.name), 'utf8');
        const ok =
          f.name === 'index.ts'
            ? /export default defineNoun\(/.test(text)
            : /export default defineCommand\(/.test(text);
        if (!ok) misplaced.push(`${noun.name}/${f.name}`);
      }
    }
    expect(misplaced).toEqual([]);
  });

  it('a noun that is itself a command takes it from command.ts', async () => {
    const NOUNS = await (await import('../../src/commands/index.js')).loadNouns();
    for (const n of NOUNS.filter((x) => x.self)) {
      const text = readFileSync(join(COMMANDS, n.name, 'index.ts'), 'utf8');
      expect({ noun: n.name, fromCommandTs: /from '\.\/command\.js'|import\('\.\/command\.js'\)/.test(text) }).toEqual({
        noun: n.name,
        fromCommandTs: true,
      });
    }
  });

  it('no noun imports another noun, and shared/ imports no noun', () => {
    expect(crossings()).toEqual([]);
  });

  it('the layers below src/commands reach into it only through its index (the nouns)', () => {
    const into: string[] = [];
    for (const file of filesUnder(SRC)) {
      if (!relative(COMMANDS, file).startsWith('..')) continue; // a file of src/commands
      for (const { fileName: spec } of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
        const target = spec.startsWith('.') ? resolve(dirname(file), spec) : '';
        if (target && !relative(COMMANDS, target).startsWith('..') && target !== join(COMMANDS, 'index.js'))
          into.push(`${relative(SRC, file).split(sep).join('/')} → ${spec}`);
      }
    }
    expect(into).toEqual([]);
  });
});
