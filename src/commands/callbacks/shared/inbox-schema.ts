// The callbacks part of a profile's store (src/store/): the inbox (notifications and quarantined
// bodies, in arrival order), the forward queue (what was acknowledged and not delivered yet), the
// delivery log, the dead letters not delivered since, and reconcile's record of what it re-queued.
// Each query the commands make has its index, so none costs anything that grows with history:
// a listener's restart reads the queue only, `callbacks inbox --since … --status …` one range.
// A migration is appended, never edited once released (docs/CONVENTIONS.md, src/store/).
import type { Schema } from '../../../store/db.js';

const V1 = `
CREATE TABLE callbacks_notification (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL,
  received_ms INTEGER NOT NULL,
  quarantined INTEGER NOT NULL DEFAULT 0,
  invitation_id TEXT,
  status TEXT,
  status_key TEXT,
  problem TEXT,
  duplicate INTEGER NOT NULL DEFAULT 0,
  headers TEXT NOT NULL,
  body BLOB NOT NULL,
  forward_to TEXT,
  signed_with TEXT
) STRICT;
CREATE INDEX callbacks_notification_received ON callbacks_notification (received_ms);
CREATE INDEX callbacks_notification_status ON callbacks_notification (status_key, received_ms);
CREATE INDEX callbacks_notification_invitation ON callbacks_notification (invitation_id, status_key);
CREATE INDEX callbacks_notification_forwarded ON callbacks_notification (seq) WHERE forward_to IS NOT NULL;

CREATE TABLE callbacks_forward (
  seq INTEGER PRIMARY KEY REFERENCES callbacks_notification (seq),
  target TEXT NOT NULL,
  invitation_id TEXT,
  tries INTEGER NOT NULL DEFAULT 0,
  next_ms INTEGER NOT NULL DEFAULT 0,
  last_error TEXT
) STRICT;
CREATE INDEX callbacks_forward_target ON callbacks_forward (target, seq);

CREATE TABLE callbacks_delivery (
  seq INTEGER PRIMARY KEY,
  at_ms INTEGER NOT NULL,
  notification INTEGER NOT NULL REFERENCES callbacks_notification (seq),
  target TEXT NOT NULL,
  outcome TEXT NOT NULL CHECK (outcome IN ('delivered', 'dead-letter')),
  via TEXT,
  tries INTEGER NOT NULL,
  error TEXT
) STRICT;
CREATE INDEX callbacks_delivery_notification ON callbacks_delivery (notification);

CREATE TABLE callbacks_dead_letter (
  id TEXT PRIMARY KEY,
  notification INTEGER NOT NULL REFERENCES callbacks_notification (seq),
  at_ms INTEGER NOT NULL,
  target TEXT NOT NULL,
  tries INTEGER NOT NULL,
  error TEXT NOT NULL
) STRICT;
CREATE INDEX callbacks_dead_letter_at ON callbacks_dead_letter (at_ms);

CREATE TABLE callbacks_listener (
  one INTEGER PRIMARY KEY CHECK (one = 1),
  pid INTEGER NOT NULL,
  started_ms INTEGER NOT NULL,
  url TEXT NOT NULL
) STRICT;

CREATE TABLE callbacks_requeue (
  target TEXT NOT NULL,
  invitation_id TEXT NOT NULL,
  at_ms INTEGER NOT NULL,
  result TEXT NOT NULL,
  message TEXT,
  PRIMARY KEY (target, invitation_id)
) STRICT;

CREATE TABLE callbacks_reconcile_run (
  seq INTEGER PRIMARY KEY,
  target TEXT NOT NULL,
  at_ms INTEGER NOT NULL,
  window_from TEXT NOT NULL,
  window_to TEXT NOT NULL,
  missing INTEGER NOT NULL,
  requeued INTEGER NOT NULL,
  failed INTEGER NOT NULL,
  not_registered INTEGER NOT NULL
) STRICT;
`;

export const CALLBACKS_SCHEMA: Schema = { name: 'callbacks', migrations: [V1] };
