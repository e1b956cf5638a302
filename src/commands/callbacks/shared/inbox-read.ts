// What the callbacks commands read from the inbox (shared/inbox.ts): each query walks one index
// range, and lists stream row by row (a full `--json` export of a million notifications holds
// one row at a time).
import type { Store } from '../../../store/db.js';
import { TERMINAL } from '../../shared/statuses.js';
import { recordOf, type NotificationRecord } from './inbox-record.js';

export interface InboxFilter {
  /** Only what was received (a dead letter: failed) at or after this time (ms). */
  sinceMs?: number;
  /** Only this status (normStatus spelling); quarantined bodies have none. */
  statusKey?: string;
}

/** The rows of one statement, one at a time (its own statement: a cached one may be in use). */
export function* rowsOf(store: Store, text: string, ...params: Array<string | number | null>) {
  const it = store.guard(() => store.db.prepare(text).iterate(...params));
  for (;;) {
    const next = store.guard(() => it.next());
    if (next.done) return;
    yield next.value as Record<string, unknown>;
  }
}

/** Stored notifications (quarantined bodies among them) in arrival order. */
export function notifications(store: Store, f: InboxFilter = {}): Iterable<NotificationRecord> {
  const where: string[] = [];
  const params: Array<string | number> = [];
  if (f.sinceMs !== undefined) where.push('received_ms >= ?') && params.push(f.sinceMs);
  if (f.statusKey !== undefined) where.push('status_key = ?') && params.push(f.statusKey);
  const sql = `SELECT * FROM callbacks_notification ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY seq`;
  return map(rowsOf(store, sql, ...params), recordOf);
}

export interface DeadLetter {
  at: string;
  id: string;
  invitationId: string | null;
  status: string | null;
  target: string;
  tries: number;
  error: string;
}

/** Dead letters not delivered since (a later forward or replay of the same notification settles one). */
export function deadLetters(store: Store, f: InboxFilter = {}): DeadLetter[] {
  const where: string[] = [];
  const params: Array<string | number> = [];
  if (f.sinceMs !== undefined) where.push('d.at_ms >= ?') && params.push(f.sinceMs);
  if (f.statusKey !== undefined) where.push('n.status_key = ?') && params.push(f.statusKey);
  const sql = `SELECT d.at_ms, d.id, n.invitation_id, n.status, d.target, d.tries, d.error
    FROM callbacks_dead_letter d JOIN callbacks_notification n ON n.seq = d.notification
    ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY d.at_ms, d.notification`;
  return [...rowsOf(store, sql, ...params)].map((r) => ({
    at: new Date(Number(r.at_ms)).toISOString(),
    id: String(r.id),
    invitationId: r.invitation_id === null ? null : String(r.invitation_id),
    status: r.status === null ? null : String(r.status),
    target: String(r.target),
    tries: Number(r.tries),
    error: String(r.error),
  }));
}

/** How many acknowledged notifications wait to be forwarded, per target. */
export function waitingForwards(store: Store): Map<string, number> {
  const rows = rowsOf(store, 'SELECT target, count(*) AS n FROM callbacks_forward GROUP BY target');
  return new Map([...rows].map((r) => [String(r.target), Number(r.n)]));
}

/** The notifications stored for these invitations, in arrival order. */
export function forInvitations(store: Store, ids: readonly string[]): NotificationRecord[] {
  const stmt = store.sql('SELECT * FROM callbacks_notification WHERE invitation_id = ? ORDER BY seq');
  const all = ids.flatMap((id) => store.guard(() => stmt.all(id)).map(recordOf));
  return all.sort((a, b) => a.seq - b.seq);
}

/** The --forward-to of the latest notification stored with one (replay's default target). */
export function latestForwardTarget(store: Store): string | undefined {
  const row = store
    .sql('SELECT forward_to FROM callbacks_notification WHERE forward_to IS NOT NULL ORDER BY seq DESC LIMIT 1')
    .get();
  return row ? String(row.forward_to) : undefined;
}

const TERMINAL_KEYS = [...TERMINAL];

/** Whether a terminal notification (Complete, Test Left, Terminated) of this invitation is stored. */
export function notifiedTerminal(store: Store, invitationId: string): boolean {
  const marks = TERMINAL_KEYS.map(() => '?').join(', ');
  const stmt = store.sql(
    `SELECT 1 FROM callbacks_notification WHERE invitation_id = ? AND status_key IN (${marks}) LIMIT 1`,
  );
  return store.guard(() => stmt.get(invitationId, ...TERMINAL_KEYS)) !== undefined;
}

/** Whether any terminal notification is stored at all. */
export function anyTerminal(store: Store): boolean {
  const marks = TERMINAL_KEYS.map(() => '?').join(', ');
  const stmt = store.sql(`SELECT 1 FROM callbacks_notification WHERE status_key IN (${marks}) LIMIT 1`);
  return store.guard(() => stmt.get(...TERMINAL_KEYS)) !== undefined;
}

function* map<A, B>(it: Iterable<A>, f: (a: A) => B): Iterable<B> {
  for (const a of it) yield f(a);
}
