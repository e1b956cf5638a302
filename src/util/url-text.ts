// What a URL the user types may hold: the WHATWG parser (URL, fetch) silently drops tabs and line
// breaks inside a URL and trims control characters and spaces at its ends, so `https://a.example/
// x\r\nX-Y: z` or a URL with a space in it would be sent changed, or carried verbatim into a
// request body. Such a URL is a paste or quoting mistake: refused, naming the character.
import * as z from 'zod/mini';

/** C0 and C1 controls, DEL, the space and every other white space or invisible separator. */
const BAD = /[\u0000-\u0020\u007f-\u00a0\u1680\u2000-\u200f\u2028\u2029\u202f\u205f\u3000\ufeff]/u;

const NAMES: Record<string, string> = {
  ' ': 'a space',
  '\t': 'a tab',
  '\n': 'a line break (LF)',
  '\r': 'a carriage return (CR)',
  '\u0000': 'a NUL',
  '\u001b': 'an escape character (ESC)',
};

/** Why `text` cannot be an address (a control character or white space in it), or undefined. */
export function urlTextProblem(text: string): string | undefined {
  const m = BAD.exec(text);
  if (!m) return undefined;
  const c = m[0];
  const code = `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  const fix = c === ' ' ? 'encode a space as %20' : 'a URL has no spaces or control characters';
  return `contains ${NAMES[c] ?? `the character ${code}`} at position ${m.index + 1}; ${fix}`;
}

/** An http(s) URL as typed (trimmed), with nothing the parser would drop or change. */
export function isHttpUrl(text: string): boolean {
  return /^https?:\/\//i.test(text) && URL.canParse(text) && urlTextProblem(text) === undefined;
}

/** The zod schema of an http(s) URL flag or setting: trimmed, then refused with the reason. */
export const httpUrl = (example: string) =>
  z.string().check(
    z.trim(),
    z.superRefine((s, c) => {
      const problem =
        urlTextProblem(s) ??
        (/^https?:\/\//i.test(s) && URL.canParse(s) ? undefined : `must be an http(s) URL, e.g. ${example}`);
      if (problem) c.addIssue({ code: 'custom', message: problem });
    }),
  );
