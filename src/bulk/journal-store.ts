// Where a bulk run keeps its journal: in the profile's store (src/store/profile-store.ts), or,
// with `--journal FILE`, in a database file of its own (to keep it beside the run's files, e.g. in
// a CI cache). An NDJSON journal of an older assess is never read: named in one line where one
// used to be found, and refused (exit 2, left untouched) when given as --journal.
import { createHash } from 'node:crypto';
import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { Store } from '../store/db.js';
import { openProfileStore, storeTarget } from '../store/profile-store.js';
import { RUNS_SCHEMA, RunState, type RunIdentity } from './run-state.js';

export interface JournalChoice {
  kind: RunIdentity['kind'];
  /** The run's name in the profile's store (the CSV, the directory…); a --journal file is one run's own. */
  name: string;
  /** `--journal FILE`, as given. */
  file?: string;
  /** The profile's store when the command opened it already (with the parts it needs besides). */
  home?: Store;
  /** Hold the journal for this run (not for a dry run, which only reads). */
  lock: boolean;
}

export async function openJournal(ctx: Context, c: JournalChoice): Promise<RunState> {
  const target = await storeTarget(ctx);
  const store = c.file ? openJournalFile(ctx, c.file) : (c.home ?? openProfileStore(ctx, [RUNS_SCHEMA]));
  const state = RunState.open(
    store,
    { kind: c.kind, name: c.file ? '' : c.name, target },
    {
      now: () => ctx.now(),
      lock: c.lock,
    },
  );
  ctx.onExit(() => state.close());
  return state;
}

function openJournalFile(ctx: Context, file: string): Store {
  const path = resolve(file);
  if (existsSync(path)) {
    const st = statSync(path);
    if (!st.isFile())
      throw new UsageError(
        `--journal: ${path} is not a regular file`,
        'a journal is a database file the next run reads back: give a file name (or leave --journal out)',
      );
    if (looksLikeNdjson(path))
      throw new UsageError(
        `--journal: ${path} is the journal of an older assess ` +
          `(NDJSON), which this one does not read; it is left as it is`,
        "give this run a new file (e.g. --journal run.db), or leave --journal out to keep it in the profile's store",
      );
  }
  const store = Store.open(path, [RUNS_SCHEMA], {
    what: 'the journal',
    env: ctx.env,
    scrub: (text) => ctx.secrets.scrub(text),
  });
  ctx.onExit(() => store.close());
  return store;
}

/** The first byte of an NDJSON journal is `{`; of a SQLite file, `S`. */
function looksLikeNdjson(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const b = Buffer.alloc(1);
    return readSync(fd, b, 0, 1, 0) === 1 && b[0] === 0x7b;
  } finally {
    closeSync(fd);
  }
}

/** One line naming an older assess's NDJSON journal found where one used to be kept; it is not read. */
export function noteOldJournal(ctx: Context, path: string, state: RunState): void {
  if (existsSync(path))
    ctx.info(
      `note: ${path} is the journal of an older assess; it is not read (this run's journal is in ` +
        `${state.path}), and left as it is`,
    );
}

/** A run's name for a set of items (callbacks process's ids): the same items in any order are the same run. */
export function nameOfSet(what: string, items: readonly string[]): string {
  const sorted = [...items].sort();
  return `${sorted.length} ${what} ${createHash('sha256').update(sorted.join('\n')).digest('hex').slice(0, 32)}`;
}
