// A time for people, in UTC: `21 Nov 2026, 21:11 UTC`. Written out by hand rather than with
// toLocaleString: the same instant gives the same text on every machine and ICU version (en-GB's
// short September is "Sep" in some, "Sept" in others). Used by the sandbox PDF (the service's
// document: it says UTC beside every time). The terminal and the digest: src/output/local-time.ts.

/** English month abbreviations, as the service and this tool write them. */
export const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `21 Nov 2026, 21:11 UTC`, or undefined when `iso` is not a time. */
export function utcText(iso: string): string | undefined {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return undefined;
  const two = (n: number) => String(n).padStart(2, '0');
  return (
    `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}, ` +
    `${two(d.getUTCHours())}:${two(d.getUTCMinutes())} UTC`
  );
}

/**
 * `2026-11-21T21:11:05Z`: what the spec writes request date-times as (toISOString without the
 * milliseconds). From the UTC fields by hand: a process's first toISOString() costs ~0.2 ms
 * (V8 sets up its date machinery), which a command that formats one date pays at every start.
 * Dates outside years 0–9999 (and invalid ones, which throw) are left to toISOString.
 */
export function utcSeconds(at: Date | number): string {
  const d = typeof at === 'number' ? new Date(at) : at;
  const year = d.getUTCFullYear();
  if (!(year >= 0 && year <= 9999)) return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
  const two = (n: number) => (n < 10 ? `0${n}` : String(n));
  const date = `${String(year).padStart(4, '0')}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())}`;
  return `${date}T${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}Z`;
}
