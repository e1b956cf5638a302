// The store side of `callbacks listen`: opens the inbox and takes the listener lock, stores each
// notification (or a body that is not JSON) before the 200, and hands the forwarder what an
// earlier listener acknowledged and did not forward. Nothing here reads the history: a restart
// reads the forward queue only.
import type { Context } from '../../../context.js';
import { safeText } from '../../shared/statuses.js';
import type { Received } from './receiver.js';
import type { Inbox, NotificationRecord } from './inbox.js';
import { ListenerLock } from './listener-lock.js';
import { openInbox } from './open-store.js';
import { queuedElsewhere, queuedFor, recordDeadLetter, type QueuedEntry } from './forward-queue.js';
import { plural } from '../../../util/plural.js';

export type Quarantine = (q: {
  raw: Buffer;
  reason: string;
  headers: Record<string, string | string[] | undefined>;
  at: Date;
  remote: string;
}) => Promise<void>;

export interface ListenStore {
  inbox: Inbox;
  lock: ListenerLock;
  persist(n: Received): Promise<void>;
  quarantine: Quarantine;
  /** The record stored for a notification (its seq and webhook id). */
  recordOf(n: Received): NotificationRecord | undefined;
  /** What an earlier listener acknowledged for this target and did not forward, in arrival order. */
  resumable: QueuedEntry[];
  notes: string[];
  close(): void;
}

export const label = (invitationId: string | null, status: string | null, id = '') =>
  invitationId === null
    ? `notification ${id} (not understood)`
    : `invitation ${safeText(invitationId)}${status ? ` (${safeText(status)})` : ''}`;

const waitMs = (env: Record<string, string | undefined>) => {
  const secs = Number(env.ASSESS_BUSY_TIMEOUT);
  return Number.isFinite(secs) && secs >= 0 ? secs * 1000 : 10_000;
};

export async function openListenStore(
  ctx: Context,
  input: { store?: string; forwardTo?: string },
  signedWith: string | undefined,
): Promise<ListenStore> {
  const inbox = (await openInbox(ctx, input.store))!;
  const lock = await ListenerLock.acquire(inbox.store, {
    waitMs: waitMs(ctx.env),
    signal: ctx.signal,
    now: () => ctx.now(),
    onWait: (holder) => ctx.info(`Waiting for the callbacks listen that uses ${inbox.path} to stop (${holder})…`),
  });
  const notes = [`Inbox: ${inbox.path} (every notification is stored before it is acknowledged)`];
  const stored = new WeakMap<Received, NotificationRecord>();
  const persist = async (n: Received) => {
    const rec = await inbox.addNotification({
      raw: n.raw,
      read: n.read,
      headers: n.headers ?? {},
      at: n.at,
      forwardTo: input.forwardTo,
      signedWith,
    });
    stored.set(n, rec);
    if (rec.problem)
      ctx.warn(`stored a notification that cannot be understood (${rec.problem}); callbacks inbox lists it`);
    else if (rec.duplicate)
      ctx.info(`duplicate: ${label(rec.invitationId, rec.status)} was received before (marked in the inbox)`);
  };
  const quarantine: Quarantine = async (q) => {
    await inbox.addQuarantined(q);
    ctx.warn(`stored a request from ${q.remote} that is not JSON: ${q.reason}; callbacks inbox lists it`);
  };
  const resumable = input.forwardTo ? inbox.store.read((s) => queuedFor(s, input.forwardTo!)) : [];
  const orphaned = settleOrphans(ctx, inbox, input.forwardTo);
  if (orphaned)
    notes.push(
      `${plural(orphaned, 'notification')} an earlier listener never forwarded (to another target) ` +
        `${orphaned === 1 ? 'is now a dead letter' : 'are now dead letters'}: callbacks inbox --failed lists them.`,
    );
  if (resumable.length)
    notes.push(
      `Resuming ${plural(resumable.length, 'notification')} an earlier listener acknowledged and did not forward yet.`,
    );
  return {
    inbox,
    lock,
    persist,
    quarantine,
    recordOf: (n) => stored.get(n),
    resumable,
    notes,
    close: () => {
      inbox.flush();
      lock.release();
      inbox.close();
    },
  };
}

/** Queued for another target (or none now): recorded as dead letters, so `inbox --failed` lists them. */
function settleOrphans(ctx: Context, inbox: Inbox, target: string | undefined): number {
  const error =
    `acknowledged but never forwarded: the listener stopped first, and was restarted ` +
    `${target ? `forwarding to ${target}` : 'without --forward-to'}`;
  const atMs = ctx.now().getTime();
  return inbox.store.write((s) => {
    const left = queuedElsewhere(s, target);
    for (const q of left) recordDeadLetter(s, { ...q, tries: 0, error, atMs });
    return left.length;
  });
}
