// Turns zod failures into the service's error strings ("email is required",
// "invitationType: must be 'email' or 'open'") — used by the sandbox for its {errors:[…]} bodies
// and usable by the CLI to check input before sending it.
import * as z from 'zod/mini';

const REQUIRED = '\u0000required';

function label(path: PropertyKey[]): string {
  return path
    .map((p) => (typeof p === 'number' ? `[${p}]` : String(p)))
    .join('.')
    .replace(/\.\[/g, '[');
}

/** One readable message per issue. */
export function issueMessages(issues: readonly z.core.$ZodIssue[]): string[] {
  return issues.map((iss) => {
    const where = label(iss.path);
    if (iss.message === REQUIRED) return `${where || 'body'} is required`;
    if (iss.code === 'custom' && where && iss.message.startsWith(String(iss.path[iss.path.length - 1])))
      return iss.message; // message already names the field
    return where ? `${where}: ${iss.message}` : iss.message;
  });
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; errors: string[] };

/** safeParse with "x is required" for missing values. */
export function parseWith<S extends z.core.$ZodType>(schema: S, data: unknown): Parsed<z.output<S>> {
  const r = z.safeParse(schema, data, {
    error: (iss) =>
      (iss.code === 'invalid_type' || iss.code === 'invalid_value') && iss.input === undefined ? REQUIRED : undefined,
  });
  return r.success ? { ok: true, value: r.data } : { ok: false, errors: issueMessages(r.error.issues) };
}
