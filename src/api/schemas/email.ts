// A pragmatic e-mail check, usable on list items and as z.email's pattern: zod's own, with letters and
// digits of any script in the local part and the domain (RFC 6531: `chloé@example.com`), so a
// candidate's own address is never refused for its accents. Apart from common.ts, so that a
// command checking e-mail flags does not build the wire schemas when it loads.

const LOCAL = String.raw`(?:[\p{L}\p{M}\p{N}_'+-]+\.)*[\p{L}\p{M}\p{N}_'+-]*[\p{L}\p{M}\p{N}_+-]`;
const DOMAIN = String.raw`(?:[\p{L}\p{M}\p{N}][\p{L}\p{M}\p{N}-]*\.)+[\p{L}\p{M}]{2,}`;
let pattern: RegExp | undefined;

/**
 * zod's pattern (`[A-Za-z0-9]` → letters, marks and digits of any script), made on first use: its
 * Unicode classes cost every start ~2 ms when made at load, and most commands check no address.
 */
export function emailPattern(): RegExp {
  return (pattern ??= new RegExp(`^${LOCAL}@${DOMAIN}$`, 'u'));
}

/** At most 254 characters (RFC 5321): the pattern alone accepts a 100 KB address. */
export function isEmail(v: string): boolean {
  return v.length <= 254 && emailPattern().test(v);
}
