// Turning service values into cells: dotted paths, dates, statuses.
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

const ISO_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** On a TTY dates read in local time; machine formats keep the service's ISO UTC text. */
export function localDate(v: unknown): string {
  if (typeof v !== 'string' || !ISO_RE.test(v)) return plain(v);
  const d = new Date(/Z|[+-]\d{2}:?\d{2}$/.test(v) ? v : `${v}Z`);
  if (Number.isNaN(d.getTime())) return v;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
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
