// The forward queue of `callbacks listen --forward-to`, in the store: a notification stored with a
// target gets its row in callbacks_forward in the same transaction, and the row goes when the
// notification is settled — delivered (the delivery log says so) or dead-lettered. What is left
// was acknowledged and not forwarded yet (the listener was stopped or killed): a restarted
// listener resumes it, or — when it now forwards elsewhere or not at all — records it as a dead
// letter, so `callbacks inbox --failed` lists it. These run inside a write transaction.
import type { Store } from '../../../store/db.js';
import { recordOf, type NotificationRecord } from './inbox-record.js';
import { rowsOf } from './inbox-read.js';

export interface QueuedEntry {
  seq: number;
  invitationId: string | null;
  /** Tries spent so far, and when the next may be made (ms). */
  tries: number;
  nextMs: number;
}

/** The forward queue for this target, in arrival order (without the bodies: loaded when sent). */
export function queuedFor(store: Store, target: string): QueuedEntry[] {
  const sql = 'SELECT seq, invitation_id, tries, next_ms FROM callbacks_forward WHERE target = ? ORDER BY seq';
  return [...rowsOf(store, sql, target)].map((r) => ({
    seq: Number(r.seq),
    invitationId: r.invitation_id === null ? null : String(r.invitation_id),
    tries: Number(r.tries),
    nextMs: Number(r.next_ms),
  }));
}

/** A queued notification, if it is still queued for this target (a replay may have settled it). */
export function queuedOne(store: Store, seq: number, target: string): NotificationRecord | undefined {
  const row = store
    .sql(
      `SELECT n.* FROM callbacks_forward f JOIN callbacks_notification n ON n.seq = f.seq
       WHERE f.seq = ? AND f.target = ?`,
    )
    .get(seq, target);
  return row ? recordOf(row) : undefined;
}

/** A failed try: the tries spent and when the next is due, kept for a restart. */
export function recordRetry(
  store: Store,
  r: { seq: number; target: string; tries: number; nextMs: number; error: string },
) {
  store
    .sql('UPDATE callbacks_forward SET tries = ?, next_ms = ?, last_error = ? WHERE seq = ? AND target = ?')
    .run(r.tries, r.nextMs, r.error, r.seq, r.target);
}

export interface Queued {
  seq: number;
  id: string;
  target: string;
}

/** Queued notifications for any target but this one (all of them without a target). */
export function queuedElsewhere(store: Store, target: string | undefined): Queued[] {
  const sql = `SELECT f.seq, n.id, f.target FROM callbacks_forward f JOIN callbacks_notification n ON n.seq = f.seq
    WHERE f.target IS NOT ? ORDER BY f.seq`;
  return [...rowsOf(store, sql, target ?? null)].map((r) => ({
    seq: Number(r.seq),
    id: String(r.id),
    target: String(r.target),
  }));
}

export interface Settled {
  seq: number;
  id: string;
  target: string;
  tries: number;
  atMs: number;
}

/** Delivered: off the queue, in the delivery log, and its dead letters settled. */
export function recordDelivered(store: Store, s: Settled & { via: 'forward' | 'replay' }): void {
  store.sql('DELETE FROM callbacks_forward WHERE seq = ? AND target = ?').run(s.seq, s.target);
  store
    .sql(
      `INSERT INTO callbacks_delivery (at_ms, notification, target, outcome, via, tries) VALUES (?, ?, ?, ` +
        `'delivered', ?, ?)`,
    )
    .run(s.atMs, s.seq, s.target, s.via, s.tries);
  store.sql('DELETE FROM callbacks_dead_letter WHERE id = ?').run(s.id);
}

/** Not delivered after its tries: off the queue, in the delivery log, listed by `callbacks inbox --failed`. */
export function recordDeadLetter(store: Store, s: Settled & { error: string; via?: 'forward' | 'replay' }): void {
  store.sql('DELETE FROM callbacks_forward WHERE seq = ? AND target = ?').run(s.seq, s.target);
  store
    .sql(
      `INSERT INTO callbacks_delivery (at_ms, notification, target, outcome, via, tries, error)
       VALUES (?, ?, ?, 'dead-letter', ?, ?, ?)`,
    )
    .run(s.atMs, s.seq, s.target, s.via ?? 'forward', s.tries, s.error);
  store
    .sql(
      `INSERT INTO callbacks_dead_letter (id, notification, at_ms, target, tries, error) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET notification = excluded.notification, at_ms = excluded.at_ms,
         target = excluded.target, tries = excluded.tries, error = excluded.error`,
    )
    .run(s.id, s.seq, s.atMs, s.target, s.tries, s.error);
}
