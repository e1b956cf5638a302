// What `callbacks reconcile --apply` re-queued, per service target (a --sandbox rehearsal is
// apart from the real service), in the callbacks part of the store: the latest answer per
// invitation (for --cooldown) and a line per run.
import type { Store } from '../../../store/db.js';

export function earlierRequeue(
  store: Store,
  target: string,
  invitationId: string,
): { result: string; atMs: number } | undefined {
  const row = store
    .sql('SELECT result, at_ms FROM callbacks_requeue WHERE target = ? AND invitation_id = ?')
    .get(target, invitationId);
  return row ? { result: String(row.result), atMs: Number(row.at_ms) } : undefined;
}

export function recordRequeue(
  store: Store,
  r: { target: string; invitationId: string; atMs: number; status: string; message?: string | null },
): void {
  store
    .sql(
      `INSERT INTO callbacks_requeue (target, invitation_id, at_ms, result, message) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (target, invitation_id) DO UPDATE SET at_ms = excluded.at_ms, result = excluded.result,
         message = excluded.message`,
    )
    .run(r.target, r.invitationId, r.atMs, r.status, r.message ?? null);
}

export function recordReconcileRun(
  store: Store,
  r: {
    target: string;
    atMs: number;
    from: string;
    to: string;
    missing: number;
    requeued: number;
    failed: number;
    notRegistered: number;
  },
): void {
  store
    .sql(
      `INSERT INTO callbacks_reconcile_run (target, at_ms, window_from, window_to, missing, requeued, failed,
         not_registered) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(r.target, r.atMs, r.from, r.to, r.missing, r.requeued, r.failed, r.notRegistered);
}
