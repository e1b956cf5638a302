// A notification as the callbacks commands see it, read from a row of callbacks_notification
// (shared/inbox-schema.ts). Kept apart from shared/inbox.ts, which loads node:crypto.

export interface NotificationRecord {
  /** Arrival order in this store. */
  seq: number;
  receivedAt: string;
  /** Stable per notification (the Standard Webhooks `webhook-id` it is forwarded with). */
  id: string;
  /** A body that is not JSON at all, kept with the reason in `problem`. */
  quarantined: boolean;
  /** Null when the body could not be understood (`problem` says why). */
  invitationId: string | null;
  /** The body's Status (v3 spelling); null for a v2 body. */
  status: string | null;
  problem: string | null;
  /** Same invitation and status seen before in this store. */
  duplicate: boolean;
  headers: Record<string, string>;
  body: Buffer;
  /** Where the listener forwards it (replay's default target). */
  forwardTo: string | null;
  /** The forward was signed with the secret from here (a file, ASSESS_WEBHOOK_SECRET); replay signs alike. */
  signedWith: string | null;
}

/** A stored row as a record (the column names of callbacks_notification). */
export function recordOf(row: Record<string, unknown>): NotificationRecord {
  const text = (v: unknown) => (v === null || v === undefined ? null : String(v));
  return {
    seq: Number(row.seq),
    receivedAt: new Date(Number(row.received_ms)).toISOString(),
    id: String(row.id),
    quarantined: Number(row.quarantined) === 1,
    invitationId: text(row.invitation_id),
    status: text(row.status),
    problem: text(row.problem),
    duplicate: Number(row.duplicate) === 1,
    headers: JSON.parse(String(row.headers)) as Record<string, string>,
    body: Buffer.from(row.body as Uint8Array),
    forwardTo: text(row.forward_to),
    signedWith: text(row.signed_with),
  };
}
