// RFC 4180 CSV through csv-stringify (quotes, commas, newlines and quotes-in-quotes handled by
// a well-tested library rather than by us).
import { stringify } from 'csv-stringify/sync';

export function toCsvLine(values: unknown[]): string {
  return stringify([values.map((v) => (v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v)))], {
    record_delimiter: '\r\n',
    // A bare LF inside a value must be quoted too, or readers that split on LF break the row.
    quoted_match: /[\r\n]/,
  });
}
