// Flat "field: old → new" diffs of nested objects, used by `settings set` (diff before confirming)
// and `links update` (what changed). Keys are dotted paths in the service's own field names.

export interface Change {
  key: string;
  old: unknown;
  new: unknown;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `{a:{b:1}}` → `{'a.b': 1}`; arrays and other non-plain values are leaves. */
export function flatten(obj: unknown, prefix = ''): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!isPlainObject(obj)) {
    if (prefix) out[prefix] = obj;
    return out;
  }
  for (const [k, v] of Object.entries(obj)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (isPlainObject(v) && Object.keys(v).length) Object.assign(out, flatten(v, key));
    else out[key] = v;
  }
  return out;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** Every leaf whose value differs between before and after, in after's key order first. */
export function diffObjects(before: unknown, after: unknown): Change[] {
  const a = flatten(before);
  const b = flatten(after);
  const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])];
  return keys.filter((k) => !same(a[k], b[k])).map((k) => ({ key: k, old: a[k] ?? null, new: b[k] ?? null }));
}

/** Whether `now` holds every change's new value (a write read back: was it carried out?). */
export function holdsChanges(now: unknown, changes: Change[]): boolean {
  const flat = flatten(now);
  return changes.every((c) => same(flat[c.key], c.new));
}

export function showValue(v: unknown): string {
  if (v === null || v === undefined) return '(none)';
  return typeof v === 'string' ? JSON.stringify(v) : String(typeof v === 'object' ? JSON.stringify(v) : v);
}

/** One line per change: `key: old → new`. */
export function formatChanges(changes: Change[], indent = '  '): string {
  return changes.map((c) => `${indent}${c.key}: ${showValue(c.old)} → ${showValue(c.new)}`).join('\n');
}
