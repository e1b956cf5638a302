// Turning service values into cells: dotted paths, plain text, statuses (times: local-time.ts).
import type { Style } from './style.js';

export function getPath(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const part of path.split('.')) {
    if (cur === null || cur === undefined || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/** Plain text for a cell: nested values as JSON, nothing for null/undefined. */
export function plain(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

export function statusColour(status: string, c: Style): string {
  switch (status.toLowerCase()) {
    case 'complete':
    case 'completed':
    case 'active':
    case 'generated':
      return c.green(status);
    case 'pending':
    case 'in progress':
      return c.yellow(status);
    case 'terminated':
    case 'test left':
    case 'failed':
      return c.red(status);
    default:
      return c.dim(status);
  }
}
