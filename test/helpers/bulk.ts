// Small file helpers for the bulk e2e tests (results, CSV input, and the journal of a run as
// its store keeps it: test/helpers/store.ts reads it).
import { existsSync, readFileSync } from 'node:fs';
import { query } from './store.js';

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

/** One item of a run's journal: its key, state (done, failed, sending), e-mail counts and what was recorded. */
export interface JournalItem {
  key: string;
  state: 'done' | 'failed' | 'sending';
  mails: number;
  twice: number;
  entry: Record<string, unknown> & { k: string };
}

/**
 * The items of the journals of `kind` (invite, export, process, reconcile) in a store file (the
 * profile's, `<config>/store/default.db`, or a --journal file), in the order first done.
 */
export function journalItems(path: string, kind = 'invite', name?: string): JournalItem[] {
  return query<Omit<JournalItem, 'entry'> & { entry: string | null }>(
    path,
    `SELECT key, state, mails, twice, entry FROM run_item JOIN run ON run.id = run_item.run
      WHERE run.kind = ? AND (? IS NULL OR run.name = ?) ORDER BY run.id, seq`,
    kind,
    ...(name === undefined ? [null, null] : [name, name]),
  ).map((r) => ({ ...r, entry: { ...(r.entry ? JSON.parse(r.entry) : {}), k: r.key } }));
}

/** The done items of a journal (a re-run skips these). */
export const doneItems = (path: string, kind = 'invite', name?: string) =>
  journalItems(path, kind, name).filter((i) => i.state === 'done');

/** The name of the journal of `invite <testId> --from-csv FILE` in the profile's store. */
export const csvRun = (csv: string, testId = '1001') => `${testId} ${csv}`;
