// How the sandbox's records are written to their tables (the columns a lookup uses beside the
// JSON document), and how the clock and id counters are read from and written to `meta`.
import type { Store as DbStore } from '../store/db.js';
import { SandboxClock } from './clock.js';
import type { SandboxInvitation, SandboxLink, SandboxStateDoc, SandboxTest } from './model.js';
import type { Param } from './store-statements.js';

type Exec = (sql: string, ...params: Param[]) => unknown;
/** 'new': an id in use fails, never overwrites; 'any': written over what is there. */
export type SaveMode = 'new' | 'any';

export function saveInvitationRow(exec: Exec, inv: SandboxInvitation, mode: SaveMode): void {
  const expires = inv.status === 'Pending' && inv.accessEnd ? Date.parse(inv.accessEnd) : NaN;
  exec(
    `INSERT INTO invitations (invitation_id, account_id, link_id, email_key, status, expires_at_ms, doc)
       VALUES (?, ?, ?, ?, ?, ?, ?)` +
      (mode === 'new'
        ? ''
        : ` ON CONFLICT (invitation_id) DO UPDATE SET account_id = excluded.account_id, link_id = excluded.link_id,
         email_key = excluded.email_key, status = excluded.status,
         expires_at_ms = excluded.expires_at_ms, doc = excluded.doc`),
    inv.testInvitationId,
    inv.accountId,
    inv.testLinkId,
    inv.email.toLowerCase(),
    inv.status,
    Number.isFinite(expires) ? expires : null,
    JSON.stringify(inv),
  );
}

export function saveLinkRow(exec: Exec, l: SandboxLink, mode: SaveMode): void {
  exec(
    'INSERT INTO links (link_id, test_id, token, doc) VALUES (?, ?, ?, ?)' +
      (mode === 'new'
        ? ''
        : ' ON CONFLICT (link_id) DO UPDATE SET test_id = excluded.test_id, token = excluded.token, doc = ' +
          'excluded.doc'),
    l.testLinkId,
    l.testId,
    l.testLink,
    JSON.stringify(l),
  );
}

export function saveTestRow(exec: Exec, t: SandboxTest): void {
  exec(
    `INSERT INTO tests (test_id, account_id, doc) VALUES (?, ?, ?)
       ON CONFLICT (test_id) DO UPDATE SET account_id = excluded.account_id, doc = excluded.doc`,
    t.testId,
    t.accountId,
    JSON.stringify(t),
  );
}

/** The clock and the id counters as a turn reads them once, and whether they are to be written back. */
export interface Meta {
  clock: SandboxClock;
  next: SandboxStateDoc['nextIds'];
  /** Changed in this turn: written back before it commits. */
  dirty: boolean;
  /** A reset replaced the row: this copy is not written back. */
  replaced: boolean;
}

export function readMeta(db: DbStore): Meta {
  const m = db.sql('SELECT * FROM meta').get()!;
  const frozen = m.clock_frozen_at_ms === null ? null : Number(m.clock_frozen_at_ms);
  const next = {
    testLink: Number(m.next_test_link),
    invitation: Number(m.next_invitation),
    event: Number(m.next_event),
    email: Number(m.next_email),
  };
  return { clock: new SandboxClock(Number(m.clock_offset_ms), frozen), next, dirty: false, replaced: false };
}

export function writeMeta(exec: Exec, m: Meta): void {
  const n = m.next;
  exec(
    'UPDATE meta SET clock_offset_ms = ?, clock_frozen_at_ms = ?, next_test_link = ?, next_invitation = ?, ' +
      'next_event = ?, next_email = ?',
    Math.round(m.clock.offset),
    m.clock.frozenAt,
    n.testLink,
    n.invitation,
    n.event,
    n.email,
  );
}
