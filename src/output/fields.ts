// `--json a,b` keeps only the named fields; an unknown name is a usage error listing valid ones.
import { UsageError } from '../errors.js';

export function pickFields<T extends Record<string, unknown>>(row: T, fields: string[] | undefined): Record<string, unknown> {
  if (!fields) return row;
  const out: Record<string, unknown> = {};
  for (const f of fields) out[f] = row[f];
  return out;
}

/** Throws when a requested field is not one the command can produce. */
export function checkFields(fields: string[] | undefined, valid: Iterable<string>): void {
  if (!fields) return;
  const known = new Set(valid);
  const unknown = fields.filter((f) => !known.has(f));
  if (unknown.length) {
    throw new UsageError(
      `--json: unknown field${unknown.length > 1 ? 's' : ''} ${unknown.map((f) => `'${f}'`).join(', ')}`,
      `valid fields: ${[...known].join(', ')}`,
    );
  }
}

export function parseFieldList(value: string | boolean | undefined): string[] | undefined {
  if (typeof value !== 'string') return undefined;
  const list = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return list.length ? list : undefined;
}
