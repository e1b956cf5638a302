// A pragmatic e-mail check (the same pattern zod's z.email() uses), usable on list items. Apart
// from common.ts, so that a command checking e-mail flags does not build the wire schemas when it
// loads.
import * as z from 'zod/mini';

/** At most 254 characters (RFC 5321): zod's pattern alone accepts a 100 KB address. */
const email = z.pipe(z.string().check(z.maxLength(254)), z.email());

export function isEmail(v: string): boolean {
  return email.safeParse(v).success;
}
