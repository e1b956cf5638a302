// Text for the sandbox's report PDF, kept free of pdfkit so it can be tested on its own.
//
// pdfkit's standard fonts (Helvetica) encode WinAnsi (Windows-1252) only: a character outside it
// would be written as bytes that show as unrelated glyphs. So every text from the service goes
// through `pdfText` first: control characters become spaces (a newline in a name must not start a
// new line on the page), invisible bidi and zero-width characters are dropped, letters with
// accents outside WinAnsi lose their accents (ő → o, ł → l), fullwidth and compatibility forms
// become their plain form (Ａ → A, ﬁ → fi), and anything else (CJK, Cyrillic, emoji…) becomes
// `?`, one per character, with `replaced` set so the page can say so. The JSON report keeps the
// exact text; embedding a Unicode font would make every PDF far larger for a sandbox.

import { utcText as readableUtc } from '../util/utc-text.js';
import { plural } from '../util/plural.js';

// Code points 0x80–0x9f of Windows-1252, by their Unicode values.
const WIN_ANSI_EXTRA = new Set([
  0x20ac, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0x017d, 0x2018,
  0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0x017e, 0x0178,
]);
// Letters without a decomposition that still have an obvious plain spelling.
const PLAIN: Record<string, string> = {
  ł: 'l',
  Ł: 'L',
  đ: 'd',
  Đ: 'D',
  ı: 'i',
  ħ: 'h',
  Ħ: 'H',
  ŋ: 'n',
  Ŋ: 'N',
  ĸ: 'k',
  ŀ: 'l',
  Ŀ: 'L',
};
const DASHES = /[\u2010-\u2012\u2015\u2212]/;
// C0, DEL and C1 controls (tab and newline included): shown as a space.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
// Invisible formatting that only hides or reorders text: dropped.
const INVISIBLE = /[\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/;

const isWinAnsi = (cp: number) => (cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa0 && cp <= 0xff) || WIN_ANSI_EXTRA.has(cp);

function plainOf(ch: string): string | null {
  if (PLAIN[ch]) return PLAIN[ch];
  if (DASHES.test(ch)) return '-';
  const plain = ch.normalize('NFKD').replace(/\p{M}/gu, '');
  if (plain && plain !== ch && [...plain].every((c) => isWinAnsi(c.codePointAt(0)!))) return plain;
  return null;
}

export interface PdfText {
  text: string;
  /** True when some character could not be shown and became `?`. */
  replaced: boolean;
}

/** Service text made safe for the PDF's WinAnsi fonts, on one line, spaces collapsed. */
export function pdfText(input: string | null | undefined): PdfText {
  let out = '';
  let replaced = false;
  for (const ch of (input ?? '').normalize('NFC')) {
    const cp = ch.codePointAt(0)!;
    if (CONTROL.test(ch) || cp === 0xa0) out += ' ';
    else if (INVISIBLE.test(ch)) continue;
    else if (isWinAnsi(cp)) out += ch;
    else {
      const plain = plainOf(ch);
      if (plain === null) replaced = true;
      out += plain ?? '?';
    }
  }
  return { text: out.replace(/ {2,}/g, ' ').trim(), replaced };
}

/** Seconds as whole minutes: `15 minutes`, `1 minute`, `under 1 minute`. */
export function minutesText(seconds: number): string {
  if (seconds > 0 && seconds < 30) return 'under 1 minute';
  return plural(Math.round(seconds / 60), 'minute');
}

/**
 * A service time in UTC, readably: `21 Nov 2026, 21:11 UTC`. UTC, not the attempt's time zone or
 * the host's: the same attempt gives the same bytes on every machine, and the label says which.
 * Unreadable text is shown as it came (made safe); none is `-`.
 */
export function utcText(iso: string | null | undefined): string {
  if (!iso) return '-';
  return readableUtc(iso) ?? (pdfText(iso).text || '-');
}

/** Whole percent of `part` in `whole`, or null when there is no whole to speak of. */
export function percentOf(part: number | null | undefined, whole: number | null | undefined): number | null {
  if (part == null || whole == null || !Number.isFinite(part) || !Number.isFinite(whole) || whole <= 0) return null;
  return Math.round((part / whole) * 100);
}

type Measure = (s: string) => number;

/** `text` cut to fit `width` (as `measure` sees it), ending in `…` when cut. */
export function fitText(text: string, width: number, measure: Measure): string {
  if (measure(text) <= width) return text;
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (measure(text.slice(0, mid).trimEnd() + '…') <= width) lo = mid;
    else hi = mid - 1;
  }
  return text.slice(0, lo).trimEnd() + '…';
}

/**
 * `text` broken into at most `maxLines` lines of `width`, at spaces where it can (a word longer
 * than a line is cut); the last line ends in `…` when text is left over.
 */
export function wrapText(text: string, width: number, maxLines: number, measure: Measure): string[] {
  const lines: string[] = [];
  let rest = text.trim();
  while (rest && lines.length < maxLines - 1) {
    if (measure(rest) <= width) break;
    let cut = fitLength(rest, width, measure);
    const space = rest.lastIndexOf(' ', cut);
    if (space > 0) cut = space;
    lines.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).trimStart();
  }
  if (rest) lines.push(fitText(rest, width, measure));
  return lines;
}

/** The longest prefix length of `text` that fits `width` (at least one character). */
function fitLength(text: string, width: number, measure: Measure): number {
  let lo = 1;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (measure(text.slice(0, mid)) <= width) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
