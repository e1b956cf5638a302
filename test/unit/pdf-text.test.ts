// Text for the sandbox PDF: WinAnsi-safe service text, plurals, minutes, UTC times, fitting.
import { describe, expect, it } from 'vitest';
import { fitText, minutesText, pdfText, percentOf, utcText, wrapText } from '../../src/sandbox/pdf-text.js';
import { plural } from '../../src/util/plural.js';

const chars = (s: string) => s.length; // one unit per character

describe('pdfText', () => {
  it('keeps WinAnsi text as it is, Latin-1 accents and typographic quotes included', () => {
    expect(pdfText('José Ñúñez – “Zoë” €5')).toEqual({ text: 'José Ñúñez – “Zoë” €5', replaced: false });
  });
  it('turns control characters into single spaces and drops invisible bidi and zero-width ones', () => {
    expect(pdfText('Ann\n\u001b[31mLee\t\u0085x').text).toBe('Ann [31mLee x');
    expect(pdfText('a\u202edcb\u202c\u200bz\ufeff').text).toBe('adcbz');
    expect(pdfText('  lots   of\u00a0 space ').text).toBe('lots of space');
  });
  it('spells letters outside WinAnsi plainly where it can', () => {
    expect(pdfText('Łukasz Őry Ōtsuka đ ı').text).toBe('Lukasz Ory Otsuka d i');
    expect(pdfText('Ｊａｖａ ﬁnal Ⅻ').text).toBe('Java final XII');
    expect(pdfText('a\u2212b').text).toBe('a-b');
    expect(pdfText('Ł').replaced).toBe(false);
  });
  it('shows what it cannot spell as one ? per character and says so', () => {
    expect(pdfText('张伟 Ann')).toEqual({ text: '?? Ann', replaced: true });
    expect(pdfText('Иван 😀')).toEqual({ text: '???? ?', replaced: true });
  });
  it('never yields a character outside WinAnsi or a control character', () => {
    const all = Array.from({ length: 0x3000 }, (_, i) => String.fromCodePoint(i)).join('');
    const extra = '€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ';
    const bad = [...pdfText(all).text].filter((ch) => {
      const cp = ch.codePointAt(0)!;
      return cp < 0x20 || (cp >= 0x7f && cp < 0xa0) || (cp > 0xff && !extra.includes(ch));
    });
    expect(bad).toEqual([]);
  });
  it('reads null and undefined as empty', () => {
    expect(pdfText(undefined)).toEqual({ text: '', replaced: false });
    expect(pdfText(null).text).toBe('');
  });
});

describe('words and numbers', () => {
  it('pluralises', () => {
    expect(plural(1, 'question')).toBe('1 question');
    expect(plural(0, 'question')).toBe('0 questions');
    expect(plural(2, 'question')).toBe('2 questions');
  });
  it('gives minutes from seconds', () => {
    expect(minutesText(918)).toBe('15 minutes');
    expect(minutesText(60)).toBe('1 minute');
    expect(minutesText(20)).toBe('under 1 minute');
    expect(minutesText(0)).toBe('0 minutes');
  });
  it('shows times in UTC, whatever the zone they came in', () => {
    expect(utcText('2026-11-21T21:11:02Z')).toBe('21 Nov 2026, 21:11 UTC');
    expect(utcText('2026-01-05T01:02:00+05:30')).toBe('4 Jan 2026, 19:32 UTC');
    expect(utcText(null)).toBe('-');
    expect(utcText('soon\u001b')).toBe('soon');
  });
  it('gives whole percentages, or null without a whole', () => {
    expect(percentOf(91, 130)).toBe(70);
    expect(percentOf(1, 0)).toBeNull();
    expect(percentOf(null, 10)).toBeNull();
  });
});

describe('fitting text into a box', () => {
  it('leaves text that fits alone and cuts the rest with …', () => {
    expect(fitText('short', 10, chars)).toBe('short');
    expect(fitText('a rather long name', 10, chars)).toBe('a rather…');
    expect(chars(fitText('x'.repeat(500), 10, chars))).toBeLessThanOrEqual(10);
  });
  it('wraps at spaces into at most the lines allowed', () => {
    expect(wrapText('Ann Lee', 20, 2, chars)).toEqual(['Ann Lee']);
    expect(wrapText('Anna Maria Lee Smith', 12, 2, chars)).toEqual(['Anna Maria', 'Lee Smith']);
    const lines = wrapText('one two three four five six seven', 10, 2, chars);
    expect(lines).toHaveLength(2);
    expect(lines[1]!.endsWith('…')).toBe(true);
    for (const l of lines) expect(chars(l)).toBeLessThanOrEqual(10);
  });
  it('cuts a word longer than a line', () => {
    const lines = wrapText('x'.repeat(30), 10, 2, chars);
    expect(lines).toEqual(['x'.repeat(10), 'x'.repeat(9) + '…']);
  });
});
