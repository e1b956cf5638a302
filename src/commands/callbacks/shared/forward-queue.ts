// The forward queue of `callbacks listen --forward-to`, in the store: a notification stored with a
// target gets its row in callbacks_forward in the same transaction, and the row goes when the
// notification is settled — delivered (the delivery log says so) or dead-lettered. What is left
// was acknowledged and not forwarded yet (the listener was stopped or killed): a restarted
// listener resumes it, or — when it now forwards elsewhere or not at all — records it as a dead
// letter, so `callbacks inbox --failed` lists it. These run inside a write transaction.
import type { Store } from '../../../store/db.js';
import { recordOf, type NotificationRecord } from './inbox-record.js';
import { rowsOf } from './inbox-read.js';

/** Queued notifications for this target, in arrival order. */
export function queuedFor(store: Store, target: string): NotificationRecord[] {
  const sql = `SELECT n.* FROM callbacks_forward f JOIN callbacks_notification n ON n.seq = f.seq
    WHERE f.target = ? ORDER BY f.seq`;
  return [...rowsOf(store, sql, target)].map(recordOf);
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
      `INSERT INTO callbacks_delivery (at_ms, notification, target, outcome, via, tries) VALUES (?, ?, ?, 'delivered', ?, ?)`,
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
