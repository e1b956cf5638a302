// Opening the sandbox's state: a SQLite file (src/store; SQLite does the locking, so several
// sandboxes and `--sandbox` commands share one file), or a database in memory without a file.
// A new state gets the seed data. The state file of an earlier assess (one JSON document) is
// not read and never touched: where `--state` names one, the sandbox refuses it; one left where
// the embedded sandbox kept it is named once, when the new state is made beside it.
import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { UsageError } from '../errors.js';
import { MEMORY, Store as DbStore } from '../store/db.js';
import { seedIfEmpty } from './state-doc.js';
import { SANDBOX_SCHEMA } from './state-schema.js';
import { Store, type StateConnection } from './store.js';
import { TurnTransaction } from './turn-tx.js';

export const STATE_WHAT = 'the sandbox state';

export interface StateFileOptions {
  /** The state file; none: in memory (nothing is kept after close). */
  file?: string;
  /** Where an earlier assess kept this state (JSON): named by onNotice when a new state is made. */
  formerFile?: string;
  /** ASSESS_BUSY_TIMEOUT (seconds) is read from here. */
  env?: Record<string, string | undefined>;
  onNotice?: (line: string) => void;
  /** Only to read what is kept (no seed, no write; needs an existing state). */
  reader?: boolean;
}

/** Opens (or makes, with the seed data) the state; every problem is a UsageError naming the file. */
export function openState(opts: StateFileOptions): Store {
  if (opts.file) refuseFormerFormat(opts.file);
  const store = new Store(connect(opts), opts.reader);
  if (opts.reader) return store;
  try {
    const made = seedIfEmpty(store);
    // a state that cannot take a change (read-only, a full disk) is refused now, not at the first request
    store.exec('UPDATE meta SET next_email = next_email');
    store.commitNow();
    if (made && opts.formerFile && existsSync(opts.formerFile)) opts.onNotice?.(formerNotice(opts.formerFile));
    return store;
  } catch (err) {
    try {
      store.close();
    } catch {
      // the failure above is the one to tell
    }
    throw err;
  }
}

/** The connections of this process to state files, by the file's identity (a symlink or hard link is the file). */
const shared = new Map<string, { tx: TurnTransaction; users: number }>();

function connect(opts: StateFileOptions): StateConnection {
  const key = opts.file && !opts.reader ? identity(opts.file) : undefined;
  const known = key === undefined ? undefined : shared.get(key);
  if (known) {
    known.users++;
    return { tx: known.tx, release: () => letGo(key!) };
  }
  // NORMAL: a committed change survives kill -9 (WAL); a power cut may cost the last ones, as an
  // emulator may (docs/sandbox.md). The file holds the sandbox's state and nothing else.
  const db = DbStore.open(opts.file ?? MEMORY, [SANDBOX_SCHEMA], {
    what: STATE_WHAT,
    env: opts.env,
    synchronous: 'NORMAL',
    sole: true,
  });
  // the indexes of 100,000 invitations take a few MiB: in SQLite's cache, an invite reads no page from the
  // file; a longer write-ahead log (up to ~40 MB) writes a page changed by many commits back once
  db.db.exec('PRAGMA cache_size = -32768; PRAGMA wal_autocheckpoint = 10000');
  const tx = new TurnTransaction(db, opts.reader ? 'BEGIN' : 'BEGIN IMMEDIATE');
  const made = opts.file && !opts.reader ? identity(opts.file) : undefined;
  if (made === undefined) return { tx, release: () => closeConnection(tx) };
  shared.set(made, { tx, users: 1 });
  return { tx, release: () => letGo(made) };
}

function letGo(key: string): void {
  const c = shared.get(key);
  if (!c || --c.users > 0) return;
  shared.delete(key);
  closeConnection(c.tx);
}

function closeConnection(tx: TurnTransaction): void {
  try {
    tx.finish();
  } finally {
    tx.store.close();
  }
}

function identity(file: string): string | undefined {
  try {
    const st = statSync(file);
    return `${st.dev}:${st.ino}`;
  } catch {
    return undefined; // not made yet: nobody in this process has it open
  }
}

const formerNotice = (file: string) =>
  `${file} is the sandbox state of an earlier assess (JSON), which this one does not read; ` +
  'it starts from the seed data and leaves that file as it is';

/** An earlier assess's state file (JSON, `{"format": …}`): refused, never overwritten. */
function refuseFormerFormat(file: string): void {
  if (!/^\s*\{\s*"format"\s*:/.test(head(file))) return;
  throw new UsageError(
    `cannot use ${STATE_WHAT} ${file}: it is the state file of an earlier assess (JSON), which this one does not read`,
    'give --state a new file (e.g. sandbox.db); that one is left as it is',
  );
}

/** A regular file's first bytes ('' for anything else: a FIFO or a device is never opened). */
function head(file: string): string {
  try {
    if (!statSync(file).isFile()) return '';
    const fd = openSync(file, 'r');
    try {
      const buf = Buffer.alloc(64);
      return buf.subarray(0, readSync(fd, buf, 0, buf.length, 0)).toString('latin1');
    } finally {
      closeSync(fd);
    }
  } catch {
    return ''; // missing or unreadable: the store's open names the problem
  }
}
