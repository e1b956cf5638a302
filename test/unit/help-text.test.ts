// Help text after the options wraps at word boundaries; example commands are never wrapped;
// commander's part is laid out for the terminal's width, however narrow.
import { describe, expect, it } from 'vitest';
import { wrapHelpText } from '../../src/cli/help-text.js';
import { buildProgram, helpPages } from '../../src/cli/program.js';
import { displayWidth } from '../../src/output/width.js';
import { memoryProcess } from '../helpers/memory-io.js';

describe('wrapHelpText', () => {
  it('breaks prose at spaces, never inside a word, within the width', () => {
    const text = 'After Ctrl-C nothing is sent twice. After kill -9, the rows that were in flight are sent again.';
    const out = wrapHelpText(text, 30);
    expect(out.split('\n').every((l) => l.length <= 30)).toBe(true);
    expect(out.replace(/\n/g, ' ')).toBe(text);
  });

  it('keeps example commands whole and keeps a line’s indent on its continuation lines', () => {
    const example = '  $ assess invite 1001 --email ann@example.com --name "Ann Lee" --send-email';
    expect(wrapHelpText(example, 40)).toBe(example);
    expect(wrapHelpText('  one two three four', 12)).toBe('  one two\n  three four');
  });

  it('a word longer than the width stands on its own line', () => {
    expect(wrapHelpText('a 5xx=0.1,429=0.05,reset=0.05 b', 10)).toBe('a\n5xx=0.1,429=0.05,reset=0.05\nb');
  });
});

describe('help on a narrow terminal', () => {
  // Only what cannot be broken may be wider than the terminal: an example command, a word.
  const unbreakable = (line: string) => line.trimStart().startsWith('$ ') || /^\s*\S+$/.test(line);

  it.each([20, 30, 45])(
    'every help page fits %i columns (no floor at 40), descriptions under their terms',
    async (cols) => {
      const rt = {
        proc: memoryProcess({ COLUMNS: String(cols), NO_COLOR: '1' }, { tty: true }),
        signal: new AbortController().signal,
        debug: false,
        exitHooks: [],
      };
      const pages = helpPages(await buildProgram(rt));
      expect(Object.keys(pages).length).toBeGreaterThan(50);
      for (const [path, page] of Object.entries(pages)) {
        const wide = page.split('\n').filter((l) => displayWidth(l) > cols && !unbreakable(l));
        expect(wide, `assess ${path} --help at ${cols} columns`).toEqual([]);
      }
      const invite = pages['invite']!;
      expect(invite).toMatch(/^ {2}--email <email>\n {6}candidate\b/m);
    },
  );

  it('at 80 columns descriptions stay beside their terms', async () => {
    const rt = {
      proc: memoryProcess({ COLUMNS: '80', NO_COLOR: '1' }, { tty: true }),
      signal: new AbortController().signal,
      debug: false,
      exitHooks: [],
    };
    expect(helpPages(await buildProgram(rt))['invite']).toMatch(/^ {2}--email <email> +candidate e-mail/m);
  });
});
