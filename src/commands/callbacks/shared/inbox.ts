// The durable inbox of `callbacks listen`: NDJSON, one record per line, appended BEFORE the
// listener answers 200 (so an acknowledged notification is on disk) and fsync'd in small groups
// (every request waiting at the same moment shares one fsync). Records:
//   {"type":"notification", receivedAt, id, invitationId, status, duplicate, headers, body}
//   {"type":"dead-letter", at, id, invitationId, status, target, tries, error}
//   {"type":"delivered", at, id, invitationId, status, target, via}   (the delivery log)
// and, in the quarantine file beside the inbox (bodies that are not JSON at all):
//   {"type":"quarantined", receivedAt, id, reason, headers, body}
// A notification record with `forwardTo` and no later delivered/dead-letter record for its id is
// still to be forwarded: a restarted listener resumes it (forward-log.ts).
// `body` is the request body exactly as received (a string; `bodyBase64` when not UTF-8), so a
// replay is byte-identical. A torn last line (kill -9 mid-write) is cut off when opened; a
// record the disk would not take whole (ENOSPC, a short write) is cut off at once and fails its
// request (the listener answers 503: the sender tries again), never acknowledged.
import { createHash } from 'node:crypto';
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  fsync,
  ftruncateSync,
  openSync,
  readFileSync,
  readSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { parseJsonLossless } from '../../../api/read/body.js';
import { readCallback } from '../../../api/read/callback.js';
import { UsageError } from '../../../errors.js';
import { tryFileLock, type FileLock } from '../../../util/file-lock.js';
import { asFileError } from '../../../util/file-errors.js';
import { writeAllSync } from '../../../util/write-all.js';
import { makeDirs } from '../../../util/private-dir.js';
import { openForAppend } from '../../../files/output-files.js';

export interface NotificationRecord {
  type: 'notification';
  receivedAt: string;
  /** Stable per notification (the Standard Webhooks `webhook-id` it is forwarded with). */
  id: string;
  /** Null when the body could not be understood (`problem` says why). */
  invitationId: string | null;
  /** The body's Status (v3 spelling); null for a v2 body. */
  status: string | null;
  /** Why the body cannot be understood as a notification (stored all the same). */
  problem?: string;
  /** Same invitation and status seen before in this inbox. */
  duplicate: boolean;
  headers: Record<string, string>;
  body?: string;
  bodyBase64?: string;
  /** Where the listener forwards it (replay's default target). */
  forwardTo?: string;
  /** The forward was signed with the secret from here (a file, ASSESS_WEBHOOK_SECRET); replay signs alike. */
  signedWith?: string;
}

export interface DeliveredRecord {
  type: 'delivered';
  at: string;
  id: string;
  invitationId: string | null;
  status: string | null;
  target: string;
  via: 'forward' | 'replay';
}

export interface QuarantinedRecord {
  type: 'quarantined';
  receivedAt: string;
  id: string;
  reason: string;
  headers: Record<string, string>;
  body?: string;
  bodyBase64?: string;
}

export interface DeadLetterRecord {
  type: 'dead-letter';
  at: string;
  id: string;
  invitationId: string | null;
  status: string | null;
  target: string;
  tries: number;
  error: string;
}

export type InboxRecord = NotificationRecord | DeadLetterRecord | DeliveredRecord | QuarantinedRecord;

const TYPES = new Set(['notification', 'dead-letter', 'delivered', 'quarantined']);

/** Request headers kept with a notification (signatures included, so a stored request verifies). */
export const HEADERS_KEPT = ['content-type', 'user-agent', 'webhook-id', 'webhook-timestamp', 'webhook-signature'];

const NOT_REGULAR = 'not a regular file: a FIFO or a device cannot hold the inbox';

export function defaultInboxPath(configDir: string, profile: string): string {
  return join(configDir, 'inbox', `${profile}.ndjson`);
}

/** The quarantine file beside an inbox: `x.ndjson` → `x.quarantine.ndjson`. */
export function quarantinePath(inboxPath: string): string {
  return inboxPath.endsWith('.ndjson')
    ? `${inboxPath.slice(0, -'.ndjson'.length)}.quarantine.ndjson`
    : `${inboxPath}.quarantine.ndjson`;
}

/** `msg_` + 24 base64url characters of SHA-256 over the body: the same notification, the same id. */
export function notificationId(raw: Buffer): string {
  return `msg_${createHash('sha256').update(raw).digest('base64url').slice(0, 24)}`;
}

export const dupKey = (invitationId: string | null, status: string | null) =>
  `${invitationId}|${(status ?? '').trim().toLowerCase()}`;

/** The body bytes of a stored notification. */
export function bodyBytes(r: { body?: string; bodyBase64?: string }): Buffer {
  return r.bodyBase64 !== undefined ? Buffer.from(r.bodyBase64, 'base64') : Buffer.from(r.body ?? '', 'utf8');
}

/** Reads every complete record; unreadable lines are counted, not fatal. */
export function readInbox(path: string): { records: InboxRecord[]; unreadable: number } {
  if (!existsSync(path)) return { records: [], unreadable: 0 };
  const records: InboxRecord[] = [];
  let unreadable = 0;
  // without blocking: a FIFO would wait for a writer (past Ctrl-C), a device read for ever
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  let text: string;
  try {
    if (!fstatSync(fd).isFile())
      throw new UsageError(`cannot read the inbox ${path}: ${NOT_REGULAR}`, 'give --inbox a regular file');
    text = readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
  const lines = text.split('\n');
  if (!text.endsWith('\n')) lines.pop(); // a torn last line
  for (const line of lines) {
    if (!line.trim()) continue;
    try {
      const v = JSON.parse(line) as InboxRecord;
      if (v && TYPES.has(v.type)) records.push(v);
      else unreadable++;
    } catch {
      unreadable++;
    }
  }
  return { records, unreadable };
}

export class InboxWriter {
  private readonly seen = new Set<string>();
  private waiting: Array<{ resolve: () => void; reject: (e: Error) => void }> = [];
  private syncing = false;
  private fd: number | null;
  private held: FileLock | null = null;
  /** Bytes in the file: where the next record starts (a record that failed is cut back to here). */
  private size: number;

  private constructor(
    readonly path: string,
    fd: number,
  ) {
    this.fd = fd;
    this.size = fstatSync(fd).size;
  }

  /**
   * Opens (creating the file 0600 and its directory 0700), repairs a torn tail, loads what was seen.
   * `lock` (the listener): one listener per inbox, by the file's identity (src/util/file-lock.ts),
   * so a symlink, a hard link or another spelling of the path is the same inbox; exit 2 naming
   * the holder. `callbacks replay` appends beside a running listener and takes no lock.
   */
  static open(path: string, opts: { lock?: boolean } = {}): InboxWriter {
    makeDirs(dirname(path));
    const fd = openForAppend(path, '--inbox'); // never through another user's link in /tmp
    let held: FileLock | null = null;
    try {
      const st = fstatSync(fd, { bigint: true });
      if (!st.isFile()) throw new Error(NOT_REGULAR);
      if (opts.lock) {
        const got = tryFileLock(path, st);
        if (got.holder !== undefined)
          throw new UsageError(
            `--inbox: ${path} is in use by another callbacks listen (pid ${got.holder})`,
            'stop that listener first, or give this one its own --inbox',
          );
        held = got.lock;
      }
      cutTornTail(fd);
    } catch (err) {
      closeSync(fd);
      held?.release();
      throw err;
    }
    const w = new InboxWriter(path, fd);
    w.held = held;
    for (const r of readInbox(path).records)
      if (r.type === 'notification' && r.invitationId !== null) w.seen.add(dupKey(r.invitationId, r.status));
    return w;
  }

  /** The records of the open file (the listener derives its forward queue from them at start). */
  records(): InboxRecord[] {
    return readInbox(this.path).records;
  }

  /** Builds the record (marking a duplicate), writes it, and resolves once it is fsync'd. */
  async appendNotification(n: {
    raw: Buffer;
    /** What the tolerant reader made of the body; read here when not given. */
    read?: { invitationId: string | null; status: string | null; problem?: string };
    headers: Record<string, string | string[] | undefined>;
    at: Date;
    forwardTo?: string;
    signedWith?: string;
  }): Promise<NotificationRecord> {
    const { invitationId, status, problem } = n.read ?? readCallback(parseJsonLossless(n.raw.toString('utf8')));
    const key = invitationId === null ? null : dupKey(invitationId, status);
    const record: NotificationRecord = {
      type: 'notification',
      receivedAt: n.at.toISOString(),
      id: notificationId(n.raw),
      invitationId,
      status,
      duplicate: key !== null && this.seen.has(key),
      headers: keptHeaders(n.headers),
      ...bodyFields(n.raw),
      ...(problem ? { problem } : {}),
      ...(n.forwardTo ? { forwardTo: n.forwardTo } : {}),
      ...(n.forwardTo && n.signedWith ? { signedWith: n.signedWith } : {}),
    };
    if (key !== null) this.seen.add(key);
    try {
      await this.append(record);
    } catch (err) {
      if (key !== null && !record.duplicate) this.seen.delete(key); // not stored: the sender's retry is no duplicate
      throw err;
    }
    return record;
  }

  /** A body that is not JSON at all (the quarantine file): kept with the reason, never dropped. */
  async appendQuarantined(n: {
    raw: Buffer;
    reason: string;
    headers: Record<string, string | string[] | undefined>;
    at: Date;
  }): Promise<QuarantinedRecord> {
    const record: QuarantinedRecord = {
      type: 'quarantined',
      receivedAt: n.at.toISOString(),
      id: notificationId(n.raw),
      reason: n.reason,
      headers: keptHeaders(n.headers),
      ...bodyFields(n.raw),
    };
    await this.append(record);
    return record;
  }

  async append(record: InboxRecord): Promise<void> {
    if (this.fd === null) throw new Error(`inbox ${this.path} is closed`);
    try {
      this.size += writeAllSync(this.fd, `${JSON.stringify(record)}\n`);
    } catch (err) {
      try {
        ftruncateSync(this.fd, this.size); // the part that went in is no record: cut it off
      } catch {
        // the next open cuts a torn tail
      }
      throw asFileError(err, 'the inbox', this.path) as Error;
    }
    await new Promise<void>((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.syncSoon();
    });
  }

  /** One fsync for everything written while the previous one ran (group commit). */
  private syncSoon(): void {
    if (this.syncing || this.fd === null) return;
    this.syncing = true;
    setImmediate(() => {
      const batch = this.waiting;
      this.waiting = [];
      const done = (err: Error | null) => {
        for (const w of batch) err ? w.reject(err) : w.resolve();
        this.syncing = false;
        if (this.waiting.length) this.syncSoon();
      };
      if (this.fd === null) return done(new Error(`inbox ${this.path} is closed`));
      fsync(this.fd, done);
    });
  }

  /** Waits for the fsync in progress (acknowledged records are on disk), then closes. */
  async close(): Promise<void> {
    while (this.syncing) await new Promise((r) => setTimeout(r, 5));
    if (this.fd === null) return;
    closeSync(this.fd);
    this.fd = null;
    this.held?.release();
    this.held = null;
  }
}

function keptHeaders(given: Record<string, string | string[] | undefined>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const h of HEADERS_KEPT) {
    const v = given[h];
    if (v !== undefined) headers[h] = Array.isArray(v) ? v.join(', ') : v;
  }
  return headers;
}

/** The body as text when it is UTF-8 (byte for byte), else base64. */
function bodyFields(raw: Buffer): { body: string } | { bodyBase64: string } {
  const text = raw.toString('utf8');
  return Buffer.from(text, 'utf8').equals(raw) ? { body: text } : { bodyBase64: raw.toString('base64') };
}

/** Truncates the file after its last newline when the final line is incomplete. */
function cutTornTail(fd: number): void {
  const size = fstatSync(fd).size;
  if (size === 0) return;
  const buf = Buffer.alloc(Math.min(size, 4 * 1024 * 1024));
  const start = size - buf.length;
  const n = readSync(fd, buf, 0, buf.length, start);
  const at = buf.subarray(0, n).lastIndexOf(0x0a);
  if (at < 0 && start === 0) return ftruncateSync(fd, 0);
  if (at >= 0 && start + at + 1 < size) ftruncateSync(fd, start + at + 1);
}
