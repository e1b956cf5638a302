// A time for people, in UTC: `21 Nov 2026, 21:11 UTC`. Written out by hand rather than with
// toLocaleString: the same instant gives the same text on every machine and ICU version (en-GB's
// short September is "Sep" in some, "Sept" in others). Used by the HTML digest and the sandbox PDF.

/** English month abbreviations, as the service and this tool write them. */
export const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `21 Nov 2026, 21:11 UTC`, or undefined when `iso` is not a time. */
export function utcText(iso: string): string | undefined {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return undefined;
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}, ${two(d.getUTCHours())}:${two(d.getUTCMinutes())} UTC`;
}
