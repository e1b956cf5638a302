// A message names a manual where the reader has it: the npm package installs docs/*.md beside
// dist/, the standalone executable has none, and a bare `docs/x.md` or `spec/…` is a path in the
// source repository. So no string in src/ names one (src/util/manuals.ts builds every reference;
// the OpenAPI document, written into docs/ beside the manuals, is the exception), and every
// manual named is one the package installs.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { manualPath, manualRef, MANUALS } from '../../src/util/manuals.js';
import { ROOT } from '../helpers/cli.js';

const SRC = join(ROOT, 'src');
// The OpenAPI document's texts (its builder, and the operation table's summaries) may name the repository's docs.
const EXEMPT = ['src/util/manuals.ts', 'src/sandbox/openapi/', 'src/api/operations/'];

/** Code lines of a source file: comment lines and trailing `// …` comments left out. */
function codeLines(text: string): Array<[number, string]> {
  return text
    .split('\n')
    .map((l, i): [number, string] => [i + 1, l.replace(/\s\/\/\s.*$/, '')])
    .filter(([, l]) => !/^\s*(\/\/|\/?\*)/.test(l));
}

describe('manuals in messages', () => {
  it('no string in src/ names a source path (docs/…, spec/…)', () => {
    const found: string[] = [];
    for (const e of readdirSync(SRC, { recursive: true, withFileTypes: true })) {
      if (!e.isFile() || !e.name.endsWith('.ts')) continue;
      const file = relative(ROOT, join(e.parentPath, e.name));
      if (EXEMPT.some((x) => file.startsWith(x))) continue;
      for (const [n, line] of codeLines(readFileSync(join(ROOT, file), 'utf8')))
        if (/['"`][^'"`]*\b(docs|spec)\/[^'"`]*['"`]/.test(line)) found.push(`${file}:${n}: ${line.trim()}`);
    }
    expect(found).toEqual([]);
  });

  it('every manual named is one the npm package installs', () => {
    const files = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { files: string[] }).files;
    for (const m of MANUALS) {
      expect(files, m).toContain(`docs/${m}`);
      expect(existsSync(join(ROOT, 'docs', m)), m).toBe(true);
    }
  });

  it('at run time a manual is its path on this machine; in help, where a global install puts it', () => {
    expect(manualPath('sandbox.md')).toBe(join(ROOT, 'docs', 'sandbox.md'));
    expect(manualRef('v2-to-v3.md')).toBe('$(npm root -g)/assess-cli/docs/v2-to-v3.md');
  });
});
