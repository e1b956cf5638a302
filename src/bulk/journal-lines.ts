// The lines of a bulk command's journal (src/bulk/journal.ts writes and reads them) and the
// repair of a torn last one.
//
// Lines (docs/scripting.md, "What the journal records"):
//   {"k": key, …outcome}   an item finished (a re-run skips it)
//   {"s": key}             an invitation with an e-mail is about to be sent
//   {"f": key, "mayHaveSent": bool, …}  an item failed (a re-run retries it)
//   {"run": {…}}           a whole run (report export)
//   {"target": …, "profile": …}  the service the journal's items were done on (the first such
//                          line counts): written before the first line a run writes to a journal that names none
// Every attempt that may have made the service send an e-mail is counted from them: an `s` line
// is one, unless an `f` line for it says the service surely refused it (mayHaveSent false). A
// key with two such attempts may have been e-mailed twice; the lines written from then on say
// so (`maybeEmailedTwice`), so the journal names every such candidate after any number of kills.
import { fstatSync, ftruncateSync, readSync } from 'node:fs';

export interface JournalEntry {
  /** The item key (e.g. `1001|default|ann@example.com`, or an invitation id). */
  k: string;
  at?: string;
  [field: string]: unknown;
}

/** A line without `k` that records a whole run (used by `--since-last-run`). */
export interface RunRecord {
  run: Record<string, unknown>;
}

/**
 * The service a journal's items were done on: the API's URL (origin and path, never the key) and
 * the profile, or `sandbox:<state file>` for the sandbox of a config dir (its URL changes every run).
 */
export interface JournalTarget {
  target: string;
  profile?: string;
}

export const describeTarget = (t: JournalTarget): string =>
  `${t.target}${t.profile === undefined ? '' : ` (profile ${t.profile})`}`;

/** Truncates the file after its last newline when the final line is incomplete. */
export function cutTornTail(fd: number): void {
  const size = fstatSync(fd).size;
  if (size === 0) return;
  const chunk = Buffer.alloc(64 * 1024);
  let end = size;
  while (end > 0) {
    const start = Math.max(0, end - chunk.length);
    const n = readSync(fd, chunk, 0, end - start, start);
    const at = chunk.subarray(0, n).lastIndexOf(0x0a);
    if (at >= 0) {
      const keep = start + at + 1;
      if (keep < size) ftruncateSync(fd, keep);
      return;
    }
    end = start;
  }
  ftruncateSync(fd, 0); // no complete line at all
}
