// `--json a,b` keeps only the named fields; an unknown name is a usage error listing valid ones.
import { UsageError } from '../errors.js';
import { closestField } from './query.js';

/**
 * A requested field is always in the object, `null` when the answer lacked it: every row has the
 * same keys, so a script (or a tool reading the first object's keys as a header) sees one shape.
 */
export function pickFields<T extends Record<string, unknown>>(
  row: T,
  fields: string[] | undefined,
  declared?: readonly string[],
): Record<string, unknown> {
  if (!fields) return withDeclared(row, declared);
  const out: Record<string, unknown> = {};
  for (const f of fields) out[f] = row[f] ?? null;
  return out;
}

/**
 * Without `--json a,b`: every field the command declares (null when the answer lacked it), in
 * the declared order, then the answer's other fields. Keys do not vary from row to row when the
 * service leaves optional fields out.
 */
function withDeclared(row: Record<string, unknown>, declared: readonly string[] | undefined): Record<string, unknown> {
  if (!declared?.length) return row;
  const out: Record<string, unknown> = {};
  for (const f of declared) out[f] = row[f] ?? null;
  for (const [k, v] of Object.entries(row)) if (!(k in out)) out[k] = v;
  return out;
}

/**
 * Throws when a requested field is not one the command can produce. The valid fields are listed
 * in the command's order; with `headings` (field → its table heading) each field shown as a
 * column carries its heading, `testStatus (Status)`, so what people see maps to what they name,
 * and a name that is a heading, or close to a field, gets a "did you mean".
 */
export function checkFields(
  fields: string[] | undefined,
  valid: Iterable<string>,
  headings?: ReadonlyMap<string, readonly string[]>,
): void {
  if (!fields) return;
  const known = [...new Set(valid)];
  const unknown = fields.filter((f) => !known.includes(f));
  if (!unknown.length) return;
  const byHeading = new Map(
    [...(headings ?? [])].flatMap(([field, hs]) => hs.map((h) => [h.toLowerCase(), field] as const)),
  );
  const named = unknown.map((f) => {
    const near = closestField(f, known, byHeading);
    return near ? `'${f}' (did you mean '${near}'?)` : `'${f}'`;
  });
  const withHeadings = headings?.size
    ? known.map((f) => (headings.has(f) ? `${f} (${headings.get(f)!.join(', ')})` : f))
    : undefined;
  throw new UsageError(
    `--json: unknown field${unknown.length > 1 ? 's' : ''} ${named.join(', ')}`,
    withHeadings ? `valid fields (table heading): ${withHeadings.join(', ')}` : `valid fields: ${known.join(', ')}`,
  );
}

export function parseFieldList(value: string | boolean | undefined): string[] | undefined {
  if (typeof value !== 'string') return undefined;
  const list = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return list.length ? list : undefined;
}
