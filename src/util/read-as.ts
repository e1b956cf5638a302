// A flag's text read by a function of ours (a time, a duration, a rate, a fault spec…), whose
// refusal is a usage error naming the flag like any zod check. zod/mini's transform has no
// `ctx.addIssue` (the classic API added one): `refuse` pushes the issue it pushed.
import * as z from 'zod/mini';

/** `readAs((text, refuse) => parse(text) ?? refuse('must be …, e.g. …'))`: a string in, the read value out. */
export function readAs<T>(read: (text: string, refuse: (message: string) => never) => T) {
  return z.pipe(
    z.string(),
    z.transform((text: string, ctx) =>
      read(text, (message) => {
        ctx.issues.push({ code: 'custom', message, input: text });
        return z.NEVER;
      }),
    ),
  );
}
