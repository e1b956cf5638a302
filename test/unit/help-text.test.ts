// Help text after the options wraps at word boundaries; example commands are never wrapped.
import { describe, expect, it } from 'vitest';
import { wrapHelpText } from '../../src/cli/help-text.js';

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
