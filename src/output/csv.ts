// RFC 4180 CSV through csv-stringify (quotes, commas, newlines and quotes-in-quotes handled by
// a well-tested library rather than by us).
import { stringify } from 'csv-stringify/sync';
import { escapeCell } from './escape.js';

export interface CsvOptions {
  /**
   * Neutralise spreadsheet formulas (OWASP "CSV injection"): a text cell starting with = + - @,
   * tab or CR gets a leading single quote, so Excel/LibreOffice/Sheets show it as text instead
   * of running it. Numbers are left alone (a negative score stays a number).
   */
  formulaSafe?: boolean;
  /**
   * For a terminal: control and bidi characters in text cells shown as escapes (`\x1b`, `\u202e`),
   * as in a table. Off for pipes and files, which get the exact text.
   */
  escape?: boolean;
}

const FORMULA_START = /^[=+\-@\t\r]/;

/** The cell as a spreadsheet will show it, never as a formula. */
export function neutraliseFormula(s: string): string {
  return FORMULA_START.test(s) ? `'${s}` : s;
}

export function toCsvLine(values: unknown[], opts: CsvOptions = {}): string {
  const text = (s: string) => (opts.escape ? escapeCell(s) : s);
  const cells = values.map((v) => {
    if (v === null || v === undefined) return '';
    if (typeof v === 'string') return text(opts.formulaSafe ? neutraliseFormula(v) : v);
    return text(typeof v === 'object' ? JSON.stringify(v) : String(v));
  });
  return stringify([cells], {
    record_delimiter: '\r\n',
    // A bare LF inside a value must be quoted too, or readers that split on LF break the row.
    quoted_match: /[\r\n]/,
  });
}
