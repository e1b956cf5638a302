// The change log of a --state sandbox: `<state>.log`, one JSON line per commit, written before
// the requests of that commit are answered (and fdatasync'd soon after: LogAppender). A line holds what the commit
// changed (whole invitations, links, tests, settings, deliveries; the callbacks, e-mails and
// requests added) plus the clock and id counters. The state file itself is a snapshot (the
// whole document, as before there was a log) that names the last line it includes (`logSeq`);
// loading = snapshot + the lines after it. A crash can leave only the last line torn (one writer,
// lines written in order, a failed write cut off again): it is ignored, and cut off on open.
import { realName } from '../util/file-lock.js';
import { closeSync, fdatasync, fdatasyncSync, fstatSync, ftruncateSync, openSync } from 'node:fs';
import { writeAllSync } from '../util/write-all.js';
import type {
  CallbackQueueEntry,
  Delivery,
  OutboxEntry,
  RequestLogEntry,
  SandboxInvitation,
  SandboxLink,
  SandboxStateDoc,
  SandboxTest,
} from './model.js';
import type { TestSettings } from '../api/schemas/v3.js';

export const MAX_REQUEST_LOG = 500;
export const MAX_QUEUE = 10_000;

export interface LogRecord {
  /** Sequence number: 1, 2, 3… across the life of the state (a snapshot keeps counting). */
  n: number;
  clock: [offsetMs: number, frozenAtMs: number | null];
  nextIds: SandboxStateDoc['nextIds'];
  inv?: SandboxInvitation[];
  links?: SandboxLink[];
  tests?: SandboxTest[];
  settings?: { testId: number; settings: TestSettings }[];
  cbq?: CallbackQueueEntry[];
  outbox?: OutboxEntry[];
  req?: RequestLogEntry[];
  dlv?: Delivery[];
  dlvDrop?: number[];
}

/** The change log beside the state file's real path: a symlink or `./s` names the same log. */
export const logPathOf = (stateFile: string): string => `${realName(stateFile)}.log`;

export interface ParsedLog {
  records: LogRecord[];
  /** Bytes of complete lines; anything after them is a torn last line. */
  goodBytes: number;
  tornBytes: number;
}

/**
 * The complete lines of a log. A last line without its newline, or that is not a record, was
 * torn by a crash (it was never acknowledged): it is left out. A bad line before the last is
 * not a crash's doing: `problem` names it.
 */
export function parseLog(buf: Buffer): ParsedLog | { problem: string } {
  const records: LogRecord[] = [];
  let start = 0;
  let line = 0;
  while (start < buf.length) {
    const end = buf.indexOf(10, start);
    line++;
    const last = end === -1 || end === buf.length - 1;
    if (end === -1) break; // torn: no newline
    const rec = parseRecord(buf.toString('utf8', start, end));
    const prev = records.at(-1)?.n ?? 0;
    if (!rec || rec.n <= prev) {
      if (last) break; // torn last line
      return { problem: `line ${line} of the log is not a change record` };
    }
    records.push(rec);
    start = end + 1;
  }
  return { records, goodBytes: start, tornBytes: buf.length - start };
}

function parseRecord(text: string): LogRecord | null {
  try {
    const r = JSON.parse(text) as LogRecord;
    const ok =
      typeof r === 'object' &&
      r !== null &&
      Number.isSafeInteger(r.n) &&
      Array.isArray(r.clock) &&
      typeof r.nextIds === 'object';
    return ok ? r : null;
  } catch {
    return null;
  }
}

/** The snapshot with the log's records after `doc.logSeq` applied, in order. */
export function replay(doc: SandboxStateDoc, records: LogRecord[]): SandboxStateDoc {
  const after = records.filter((r) => r.n > (doc.logSeq ?? 0));
  if (!after.length) return doc;
  const inv = new Map(doc.invitations.map((i) => [i.testInvitationId, i]));
  const links = new Map(doc.links.map((l) => [l.testLinkId, l]));
  const tests = new Map(doc.tests.map((t) => [t.testId, t]));
  const settings = new Map(doc.settings.map((s) => [s.testId, s]));
  const dlv = new Map((doc.deliveries ?? []).map((d) => [d.deliveryId, d]));
  const { callbackQueue, outbox, requests } = doc;
  for (const r of after) {
    for (const i of r.inv ?? []) inv.set(i.testInvitationId, i);
    for (const l of r.links ?? []) links.set(l.testLinkId, l);
    for (const t of r.tests ?? []) tests.set(t.testId, t);
    for (const s of r.settings ?? []) settings.set(s.testId, s);
    for (const d of r.dlv ?? []) dlv.set(d.deliveryId, d);
    for (const id of r.dlvDrop ?? []) dlv.delete(id);
    for (const e of r.cbq ?? []) callbackQueue.push(e);
    if (callbackQueue.length > MAX_QUEUE) callbackQueue.splice(0, callbackQueue.length - MAX_QUEUE);
    for (const e of r.outbox ?? []) outbox.push(e);
    for (const e of r.req ?? []) {
      requests.push(e); // trimmed as Store.recordRequest trims
      if (requests.length > MAX_REQUEST_LOG * 2) requests.splice(0, requests.length - MAX_REQUEST_LOG);
    }
  }
  const last = after.at(-1)!;
  return {
    ...doc,
    logSeq: last.n,
    clockOffsetMs: last.clock[0],
    clockFrozenAtMs: last.clock[1],
    nextIds: last.nextIds,
    invitations: [...inv.values()],
    links: [...links.values()],
    tests: [...tests.values()],
    settings: [...settings.values()],
    deliveries: [...dlv.values()],
  };
}

/** A power cut loses at most what was appended in about this long (kill -9 loses nothing). */
export const SYNC_INTERVAL_MS = 200;

/**
 * Appends lines to the log. append() returns once write(2) has taken every byte: the line is in
 * the kernel and survives the process being killed. It is written on the main thread (a few
 * microseconds), not through libuv's thread pool, whose hops cost more than the write on a busy
 * machine. fdatasync runs in the background at most SYNC_INTERVAL_MS after a line, and at close.
 */
export class LogAppender {
  private timer: NodeJS.Timeout | null = null;
  /** A failed write left part of a line that could not be cut off: nothing may follow it. */
  damaged = false;
  private syncing = false;

  private constructor(
    private fd: number,
    /** Bytes in the log (all complete lines). */
    public bytes: number,
  ) {}

  /** Opens (creates, 0600) the log; a torn last line beyond `goodBytes` is cut off first. */
  static open(path: string, goodBytes: number): LogAppender {
    const fd = openSync(path, 'a', 0o600);
    try {
      if (fstatSync(fd).size !== goodBytes) {
        ftruncateSync(fd, goodBytes);
        fdatasyncSync(fd);
      }
      return new LogAppender(fd, goodBytes);
    } catch (err) {
      closeSync(fd);
      throw err;
    }
  }

  /** Writes every byte of `text` (or throws, the log cut back to its last complete line). */
  append(text: string): void {
    if (this.damaged)
      throw new Error(
        `the log ends in a line that could not be cut off after a failed write; a snapshot will replace it`,
      );
    const buf = Buffer.from(text, 'utf8');
    try {
      writeAllSync(this.fd, buf); // the CLI's one write path: all of it, or the system's reason
    } catch (err) {
      try {
        ftruncateSync(this.fd, this.bytes);
      } catch {
        this.damaged = true; // a load drops it as a torn last line; the next snapshot's clear() removes it
      }
      throw err;
    }
    this.bytes += buf.length;
    this.timer ??= setTimeout(() => this.syncNow(), SYNC_INTERVAL_MS).unref();
  }

  private syncNow(): void {
    this.timer = null;
    if (this.syncing) return void (this.timer = setTimeout(() => this.syncNow(), SYNC_INTERVAL_MS).unref());
    this.syncing = true;
    fdatasync(this.fd, () => (this.syncing = false)); // a failure shows again at the next write or close
  }

  /** Empties the log (its lines are all in a snapshot now). */
  clear(): void {
    ftruncateSync(this.fd, 0);
    fdatasyncSync(this.fd);
    this.bytes = 0;
    this.damaged = false;
  }

  /** Syncs what is left and closes. */
  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    try {
      fdatasyncSync(this.fd);
    } finally {
      closeSync(this.fd);
    }
  }
}
