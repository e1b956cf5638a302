// The sandbox's state as tables of one SQLite file (src/store). Each record is kept whole as JSON
// (`doc`: the model's object, src/sandbox/model.ts) beside the columns its lookups need, so the
// model can change without a migration and the hot paths (an invite at 100,000 invitations, a
// candidate's latest attempt) are one indexed read each; an invitation's token begins with its
// id, so a test URL needs no index of its own. A migration is appended, never edited.
import type { Schema } from '../store/db.js';

export const SANDBOX_SCHEMA: Schema = {
  name: 'sandbox',
  migrations: [
    `CREATE TABLE meta (
       id INTEGER PRIMARY KEY CHECK (id = 1),
       clock_offset_ms INTEGER NOT NULL,
       clock_frozen_at_ms INTEGER,
       next_test_link INTEGER NOT NULL,
       next_invitation INTEGER NOT NULL,
       next_event INTEGER NOT NULL,
       next_email INTEGER NOT NULL
     ) STRICT;
     CREATE TABLE accounts (account_id INTEGER PRIMARY KEY, doc TEXT NOT NULL) STRICT;
     CREATE TABLE tests (test_id INTEGER PRIMARY KEY, account_id INTEGER NOT NULL, doc TEXT NOT NULL) STRICT;
     CREATE TABLE links (
       link_id INTEGER PRIMARY KEY, test_id INTEGER NOT NULL, token TEXT NOT NULL, doc TEXT NOT NULL
     ) STRICT;
     CREATE INDEX links_test ON links (test_id);
     CREATE INDEX links_token ON links (token);
     CREATE TABLE settings (test_id INTEGER PRIMARY KEY, doc TEXT NOT NULL) STRICT;
     CREATE TABLE invitations (
       invitation_id INTEGER PRIMARY KEY,
       account_id INTEGER NOT NULL,
       link_id INTEGER NOT NULL,
       email_key TEXT NOT NULL,
       status TEXT NOT NULL,
       expires_at_ms INTEGER,
       doc TEXT NOT NULL
     ) STRICT;
     CREATE INDEX invitations_candidate ON invitations (link_id, email_key);
     CREATE INDEX invitations_account ON invitations (account_id, status);
     CREATE INDEX invitations_expiry ON invitations (expires_at_ms) WHERE expires_at_ms IS NOT NULL;
     CREATE TABLE callbacks (event_id INTEGER PRIMARY KEY, doc TEXT NOT NULL) STRICT;
     CREATE TABLE outbox (email_id INTEGER PRIMARY KEY, invitation_id INTEGER NOT NULL, doc TEXT NOT NULL) STRICT;
     CREATE INDEX outbox_invitation ON outbox (invitation_id);
     CREATE TABLE deliveries (
       delivery_id INTEGER PRIMARY KEY,
       invitation_id INTEGER NOT NULL,
       state TEXT NOT NULL,
       owner TEXT,
       claim INTEGER,
       lease_until_ms INTEGER,
       doc TEXT NOT NULL
     ) STRICT;
     CREATE INDEX deliveries_invitation ON deliveries (invitation_id, delivery_id);
     CREATE INDEX deliveries_pending ON deliveries (delivery_id) WHERE state = 'pending';
     CREATE TABLE requests (seq INTEGER PRIMARY KEY, doc TEXT NOT NULL) STRICT;
     CREATE TABLE faults (kind TEXT PRIMARY KEY, doc TEXT NOT NULL) STRICT;`,
  ],
};
