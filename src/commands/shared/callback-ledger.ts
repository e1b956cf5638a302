// The ledger of callbacks this CLI registered, per profile (<config dir>/callbacks/<profile>.ledger.ndjson):
// one NDJSON line per invitation created or re-attempted with a callback URL (invite, invite
// --from-csv, reattempt; v3 and v2). `callbacks reconcile` checks these by default — an attempt
// that never registered a callback cannot be "missing" a notification.
// Appended (O_APPEND, one write per batch, every byte checked, fsync'd), file 0600 in a 0700
// directory; a torn last line (kill -9) is skipped by the reader. The callback URL is kept
// without its query (a listener's ?token= stays out of the file).
import { closeSync, existsSync, fsyncSync, openSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeAllSync } from '../../util/write-all.js';
import { makeDirs } from '../../util/private-dir.js';

export interface LedgerEntry {
  at: string;
  invitationId: string;
  /** Scheme, host and path of the callback URL (no query). */
  callbackUrl: string;
  via: 'invite' | 'invite --from-csv' | 'reattempt';
  api: 'v3' | 'v2';
}

export function ledgerPath(configDir: string, profile: string): string {
  return join(configDir, 'callbacks', `${profile}.ledger.ndjson`);
}

/** The URL as kept in the ledger: no query, no credentials. */
export function ledgerUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '(not a URL)';
  }
}

/** Writes all of `data` at the end of the file (the CLI's one write path); throws on failure. */
function appendAll(fd: number, data: Buffer): void {
  writeAllSync(fd, data);
}

/** Appends entries (one write, then fsync). Throws the file error; callers warn, the invitation exists regardless. */
export function appendLedger(path: string, entries: LedgerEntry[]): void {
  if (!entries.length) return;
  makeDirs(dirname(path));
  const fd = openSync(path, 'a', 0o600);
  try {
    appendAll(fd, Buffer.from(entries.map((e) => `${JSON.stringify(e)}\n`).join(''), 'utf8'));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** For bulk runs: one open file, a write per entry, one fsync at the end. */
export class LedgerAppender {
  private fd: number | null = null;
  failed: string | null = null;
  constructor(readonly path: string) {}

  add(entry: LedgerEntry): void {
    if (this.failed) return;
    try {
      if (this.fd === null) {
        makeDirs(dirname(this.path));
        this.fd = openSync(this.path, 'a', 0o600);
      }
      appendAll(this.fd, Buffer.from(`${JSON.stringify(entry)}\n`, 'utf8'));
    } catch (err) {
      this.failed = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    }
  }

  close(): void {
    if (this.fd === null) return;
    try {
      fsyncSync(this.fd);
    } catch (err) {
      this.failed ??= (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    }
    closeSync(this.fd);
    this.fd = null;
  }
}

/** Every entry (latest last); lines that are not entries (a torn tail) are skipped. */
export function readLedger(path: string): LedgerEntry[] {
  if (!existsSync(path)) return [];
  const out: LedgerEntry[] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    try {
      const e = JSON.parse(line) as LedgerEntry;
      if (e && typeof e.invitationId === 'string') out.push(e);
    } catch {
      // a torn last line: the entry was not acknowledged to anyone
    }
  }
  return out;
}

/** Records one registration; a failure is a warning (the invitation was created all the same). */
export function noteRegistered(
  ctx: { warn(m: string): void; now(): Date },
  path: string,
  entry: Omit<LedgerEntry, 'at' | 'callbackUrl'> & { callbackUrl: string | undefined | null },
): void {
  if (!entry.callbackUrl) return;
  try {
    appendLedger(path, [{ at: ctx.now().toISOString(), ...entry, callbackUrl: ledgerUrl(entry.callbackUrl) }]);
  } catch (err) {
    ctx.warn(
      `invitation ${entry.invitationId} was created, but could not be recorded in the callback ledger ${path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); callbacks reconcile --all still checks it.`,
    );
  }
}
