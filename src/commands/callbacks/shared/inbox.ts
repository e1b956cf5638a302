// The durable inbox of `callbacks listen`, in the profile's store (src/store/, part `callbacks`:
// shared/inbox-schema.ts). A notification is acknowledged (200) only after the transaction that
// stores it commits (synchronous=FULL): every request waiting at the same moment shares one
// transaction (group commit), so the cost of the disk's flush is paid once per batch, not per
// notification. A batch that cannot be stored (a full disk) fails every request in it: the
// listener answers 503 and the service tries again; nothing half-stored is ever acknowledged.
// `body` is the request body exactly as received (bytes), so a replay is byte-identical.
import { createHash } from 'node:crypto';
import { readCallback } from '../../../api/read/callback.js';
import { parseJsonLossless } from '../../../api/read/body.js';
import { Store } from '../../../store/db.js';
import { normStatus } from '../../shared/statuses.js';
import { CALLBACKS_SCHEMA } from './inbox-schema.js';
import type { NotificationRecord } from './inbox-record.js';

export type { NotificationRecord } from './inbox-record.js';

/** Request headers kept with a notification (signatures included, so a stored request verifies). */
export const HEADERS_KEPT = ['content-type', 'user-agent', 'webhook-id', 'webhook-timestamp', 'webhook-signature'];

/** What the callbacks commands call their store in messages. */
export const STORE_WHAT = 'the callbacks store';

/** `msg_` + 24 base64url characters of SHA-256 over the body: the same notification, the same id. */
export function notificationId(raw: Buffer): string {
  return `msg_${createHash('sha256').update(raw).digest('base64url').slice(0, 24)}`;
}

type Incoming = {
  raw: Buffer;
  headers: Record<string, string | string[] | undefined>;
  at: Date;
};

interface Pending {
  /** A notification (its 200 waits for this commit): flushed to disk before the answer. */
  durable: boolean;
  apply(): unknown;
  resolve(v: unknown): void;
  reject(e: unknown): void;
}

export class Inbox {
  private pending: Pending[] = [];
  private scheduled = false;

  private constructor(readonly store: Store) {}

  get path(): string {
    return this.store.path;
  }

  static open(path: string, env?: Record<string, string | undefined>): Inbox {
    return new Inbox(Store.open(path, [CALLBACKS_SCHEMA], { what: STORE_WHAT, env }));
  }

  /**
   * Runs `apply` in the next write transaction, together with every other change asked for
   * before it starts (group commit); resolves once that transaction committed.
   */
  commit<T>(apply: () => T, opts: { durable?: boolean } = {}): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ durable: opts.durable ?? true, apply, resolve: resolve as (v: unknown) => void, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      setImmediate(() => this.flush());
    });
  }

  /** Commits what waits now (also called before closing: a change asked for is never dropped). */
  flush(): void {
    this.scheduled = false;
    const batch = this.pending.splice(0);
    if (!batch.length) return;
    // A batch of forward outcomes only is committed without waiting for the disk (WAL, synchronous
    // NORMAL: atomic, and kept through a crash of the process; a power cut may undo the last ones,
    // which are then sent again — at least once, same webhook-id). Any notification in a batch
    // makes it wait for the disk, the outcomes with it.
    const lazy = batch.every((p) => !p.durable);
    let results: unknown[];
    try {
      if (lazy) this.store.db.exec('PRAGMA synchronous = NORMAL');
      results = this.store.write(() => batch.map((p) => p.apply()));
    } catch (err) {
      for (const p of batch) p.reject(err);
      return;
    } finally {
      if (lazy && this.store.db.isOpen) this.store.db.exec('PRAGMA synchronous = FULL');
    }
    batch.forEach((p, i) => p.resolve(results[i]));
  }

  /** Stores a notification (marking a duplicate; queued for `forwardTo` when given). */
  addNotification(
    n: Incoming & {
      read?: { invitationId: string | null; status: string | null; problem?: string };
      forwardTo?: string;
      signedWith?: string;
    },
  ): Promise<NotificationRecord> {
    const { invitationId, status, problem } = n.read ?? readCallback(parseJsonLossless(n.raw.toString('utf8')));
    return this.commit(() => {
      const key = invitationId === null ? null : normStatus(status);
      const duplicate =
        invitationId !== null &&
        this.store
          .sql('SELECT 1 FROM callbacks_notification WHERE invitation_id = ? AND status_key = ? LIMIT 1')
          .get(invitationId, key) !== undefined;
      const rec = this.insert({
        ...n,
        quarantined: false,
        invitationId,
        status,
        statusKey: key,
        problem: problem ?? null,
        duplicate,
        forwardTo: n.forwardTo ?? null,
        signedWith: n.forwardTo && n.signedWith ? n.signedWith : null,
      });
      if (rec.forwardTo)
        this.store
          .sql('INSERT INTO callbacks_forward (seq, target, invitation_id) VALUES (?, ?, ?)')
          .run(rec.seq, rec.forwardTo, rec.invitationId);
      return rec;
    });
  }

  /** A body that is not JSON at all: kept with the reason, never dropped, never forwarded. */
  addQuarantined(q: Incoming & { reason: string }): Promise<NotificationRecord> {
    return this.commit(() =>
      this.insert({
        ...q,
        quarantined: true,
        invitationId: null,
        status: null,
        statusKey: null,
        problem: q.reason,
        duplicate: false,
        forwardTo: null,
        signedWith: null,
      }),
    );
  }

  /** Commits what waits, then closes the file. */
  close(): void {
    this.flush();
    this.store.close();
  }

  private insert(
    r: Incoming &
      Omit<NotificationRecord, 'seq' | 'receivedAt' | 'id' | 'headers' | 'body'> & { statusKey: string | null },
  ): NotificationRecord {
    const headers = keptHeaders(r.headers);
    const id = notificationId(r.raw);
    const { lastInsertRowid } = this.store
      .sql(
        `INSERT INTO callbacks_notification (id, received_ms, quarantined, invitation_id, status, status_key, problem,
           duplicate, headers, body, forward_to, signed_with) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        id,
        r.at.getTime(),
        r.quarantined ? 1 : 0,
        r.invitationId,
        r.status,
        r.statusKey,
        r.problem,
        r.duplicate ? 1 : 0,
        JSON.stringify(headers),
        r.raw,
        r.forwardTo,
        r.signedWith,
      );
    return {
      seq: Number(lastInsertRowid),
      receivedAt: r.at.toISOString(),
      id,
      quarantined: r.quarantined,
      invitationId: r.invitationId,
      status: r.status,
      problem: r.problem,
      duplicate: r.duplicate,
      headers,
      body: r.raw,
      forwardTo: r.forwardTo,
      signedWith: r.signedWith,
    };
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
