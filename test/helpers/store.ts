// Reading what assess keeps in its store (node:sqlite) from a test: the profile's ledger of
// invitations and the state of bulk runs, without assess's own code.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

/** The store of a profile in a config dir. */
export const storeOf = (configDir: string, profile = 'default') => join(configDir, 'store', `${profile}.db`);

/** Rows of a query on a store file ([] when the file or its table is not there yet). */
export function query<T = Record<string, unknown>>(
  path: string,
  sql: string,
  ...params: Array<string | number | null>
): T[] {
  if (!existsSync(path)) return [];
  // read-write (a read-only connection cannot join a WAL file another process is writing), waiting for a writer
  const db = new DatabaseSync(path, { timeout: 10_000 });
  try {
    return db.prepare(sql).all(...params) as T[];
  } catch (err) {
    if (/no such table/.test((err as Error).message)) return [];
    throw err;
  } finally {
    db.close();
  }
}

export interface LedgerRow {
  at: string;
  via: string;
  api: string;
  test_id: string | null;
  link_id: string | null;
  email: string | null;
  name: string | null;
  send_email: number;
  withheld: number;
  callback_url: string | null;
  outcome: string;
  invitation_id: string | null;
  status: string | null;
  target: string;
}

/** The ledger of a config dir's profile, oldest first. */
export const ledgerRows = (configDir: string, profile = 'default') =>
  query<LedgerRow>(storeOf(configDir, profile), 'SELECT * FROM ledger ORDER BY id');

/** The files a journal's runs wrote (report export's PDFs, summary and digest), by the run's name. */
export const journalFiles = (path: string, name: string) =>
  query<{ name: string }>(
    path,
    'SELECT run_file.name FROM run_file JOIN run ON run.id = run_file.run WHERE run.name = ?',
    name,
  ).map((r) => r.name);
