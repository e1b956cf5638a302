// The forward queue of `callbacks listen --forward-to`, derived from the inbox: a notification
// stored with `forwardTo` is settled by a later `delivered` or `dead-letter` record with its id
// (the delivery log lives in the inbox itself). What is not settled was acknowledged and never
// forwarded (the listener was killed): a restarted listener resumes it, or — when it now forwards
// elsewhere or not at all — records it as a dead letter, so `callbacks inbox --failed` lists it.
import type { DeadLetterRecord, InboxRecord, NotificationRecord } from './inbox.js';

const settleKey = (id: string, target: string) => `${id} ${target}`;

/** Stored notifications with a forward target and no outcome yet, in arrival order (one per id and target). */
export function unsettledForwards(records: readonly InboxRecord[]): NotificationRecord[] {
  const open = new Map<string, NotificationRecord>();
  for (const r of records) {
    if (r.type === 'notification' && r.forwardTo) {
      const k = settleKey(r.id, r.forwardTo);
      if (!open.has(k)) open.set(k, r);
    } else if (r.type === 'delivered' || r.type === 'dead-letter') open.delete(settleKey(r.id, r.target));
  }
  return [...open.values()];
}

/** Dead letters not delivered since (a successful replay or forward of the same id settles them), latest per id. */
export function stillFailed(records: readonly InboxRecord[]): DeadLetterRecord[] {
  const failed = new Map<string, DeadLetterRecord>();
  for (const r of records) {
    if (r.type === 'dead-letter') {
      failed.delete(r.id); // keep the latest failure, in its place
      failed.set(r.id, r);
    } else if (r.type === 'delivered') failed.delete(r.id);
  }
  return [...failed.values()];
}
