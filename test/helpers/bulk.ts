// Small file helpers for the bulk e2e tests (journals, results, CSV input).
import { existsSync, readFileSync } from 'node:fs';

/** The complete lines of an NDJSON file ([] when it does not exist); a torn last line is left out. */
export function ndjson<T = Record<string, unknown>>(path: string): T[] {
  if (!existsSync(path)) return [];
  const lines = readFileSync(path, 'utf8').split('\n');
  lines.pop(); // after the last newline: empty, or a line still being written
  return lines.filter((l) => l.trim()).map((l) => JSON.parse(l) as T);
}

export function csvOf(rows: string[][], header = ['email', 'name']): string {
  return [header, ...rows].map((r) => r.join(',')).join('\n') + '\n';
}

/** A journal's lines less its `target` line (the service it was written for): the items, as counted before that line. */
export function journalItems<T = Record<string, unknown>>(path: string): T[] {
  return ndjson<T & { target?: unknown }>(path).filter((l) => l.target === undefined);
}
