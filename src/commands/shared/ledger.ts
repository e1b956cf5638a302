// The ledger: every invitation this CLI creates, or tries to (invite, invite --link, invite
// --from-csv, reattempt, v2 register, the same through `assess mcp`), in the profile's store. A
// row says which test, link and candidate, when and how, whether the service was asked to e-mail,
// the callback URL (no query, no credentials) and, once known, the invitation. An attempt is
// recorded before it is sent, so one whose answer never came (kill -9, a lost answer) stays as
// `sending` or `unknown`: the candidate may have been invited and e-mailed.
import type { Schema, Store } from '../../store/db.js';

export const LEDGER_SCHEMA: Schema = {
  name: 'ledger',
  migrations: [
    `CREATE TABLE ledger (
      id INTEGER PRIMARY KEY,
      target TEXT NOT NULL,
      at TEXT NOT NULL,
      via TEXT NOT NULL,
      api TEXT NOT NULL,
      test_id TEXT,
      link_id TEXT,
      email TEXT,
      name TEXT,
      send_email INTEGER NOT NULL,
      withheld INTEGER NOT NULL DEFAULT 0,
      callback_url TEXT,
      reattempt_of TEXT,
      outcome TEXT NOT NULL,
      invitation_id TEXT,
      status TEXT,
      test_url TEXT
    ) STRICT;
    CREATE INDEX ledger_by_candidate ON ledger (target, test_id, email);
    CREATE INDEX ledger_by_time ON ledger (target, at);
    CREATE INDEX ledger_by_invitation ON ledger (target, invitation_id);`,
  ],
};

/** How an attempt ends: a new or an existing invitation, surely not made, or not known (`sending`: it never ended). */
const OUTCOMES = ['sending', 'invited', 'existing', 'failed', 'unknown'] as const;
export type Outcome = (typeof OUTCOMES)[number];

export interface Attempt {
  /** The command that made it: `invite`, `invite --link`, `invite --from-csv`, `reattempt` (`mcp invite`…). */
  via: string;
  api: 'v3' | 'v2';
  testId?: string;
  linkId?: string;
  email?: string;
  name?: string;
  /** The service was asked to e-mail the candidate. */
  sendEmail: boolean;
  /** An e-mail was asked for and not sent: an earlier attempt may have sent it. */
  withheld?: boolean;
  callbackUrl?: string;
  reattemptOf?: string;
}

export interface Settled {
  outcome: Exclude<Outcome, 'sending'>;
  invitationId?: string;
  status?: string | null;
  testUrl?: string;
}

export interface LedgerRow {
  id: number;
  at: string;
  via: string;
  api: string;
  testId: string | null;
  linkId: string | null;
  email: string | null;
  name: string | null;
  sendEmail: boolean;
  withheld: boolean;
  callbackUrl: string | null;
  outcome: Outcome;
  invitationId: string | null;
  status: string | null;
  testUrl: string | null;
}

/** The URL as kept in the ledger: no query, no credentials. */
export function ledgerUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '(not a URL)';
  }
}

const COLUMNS = `id, at, via, api, test_id, link_id, email, name, send_email, withheld, callback_url, outcome,
  invitation_id, status, test_url`;

/** The ledger of one service (`target`) in a store; every method is one statement (call it in a write). */
export class Ledger {
  constructor(
    readonly store: Store,
    readonly target: string,
    private readonly now: () => Date,
  ) {}

  /** Records an attempt about to be sent; returns its row. A reattempt is of the candidate of its invitation. */
  begin(attempt: Attempt): number {
    return this.insert(attempt, { outcome: 'sending' });
  }

  private insert(
    attempt: Attempt,
    s: { outcome: Outcome; invitationId?: string; status?: string | null; testUrl?: string },
  ): number {
    const c = attempt.reattemptOf ? this.candidateOf(attempt.reattemptOf) : {};
    const a: Attempt = {
      ...attempt,
      testId: attempt.testId ?? c.testId,
      linkId: attempt.linkId ?? c.linkId,
      email: attempt.email ?? c.email,
      name: attempt.name ?? c.name,
    };
    const r = this.store
      .sql(
        `INSERT INTO ledger (target, at, via, api, test_id, link_id, email, name, send_email, withheld, callback_url,
          reattempt_of, outcome, invitation_id, status, test_url)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        this.target,
        this.now().toISOString(),
        a.via,
        a.api,
        a.testId ?? null,
        a.linkId ?? null,
        a.email?.trim().toLowerCase() ?? null,
        a.name ?? null,
        a.sendEmail ? 1 : 0,
        a.withheld ? 1 : 0,
        a.callbackUrl ? ledgerUrl(a.callbackUrl) : null,
        a.reattemptOf ?? null,
        s.outcome,
        s.invitationId ?? null,
        s.status ?? null,
        s.testUrl ?? null,
      );
    return Number(r.lastInsertRowid);
  }

  /** The test, link and candidate of an invitation this ledger knows. */
  private candidateOf(invitationId: string): Partial<Attempt> {
    const r = this.store
      .sql(
        `SELECT test_id, link_id, email, name FROM ledger WHERE target = ? AND invitation_id = ?
          ORDER BY id DESC LIMIT 1`,
      )
      .get(this.target, invitationId);
    if (!r) return {};
    const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
    return { testId: text(r.test_id), linkId: text(r.link_id), email: text(r.email), name: text(r.name) };
  }

  settle(id: number, s: Settled): void {
    this.store
      .sql('UPDATE ledger SET outcome = ?, invitation_id = ?, status = ?, test_url = ? WHERE id = ?')
      .run(s.outcome, s.invitationId ?? null, s.status ?? null, s.testUrl ?? null, id);
  }

  /** An attempt that never left this machine (refused before sending): no row. */
  forget(id: number): void {
    this.store.sql('DELETE FROM ledger WHERE id = ?').run(id);
  }

  /** An attempt recorded once its answer is in. */
  add(a: Attempt, s: Settled): void {
    this.insert(a, s);
  }

  /**
   * The candidate's latest attempt that asked for an e-mail, when its outcome is not known (the
   * answer never came): the service may have e-mailed them.
   */
  uncertainEmail(testId: string, linkId: string | undefined, email: string): LedgerRow | undefined {
    const row = this.store
      .sql(
        `SELECT ${COLUMNS} FROM ledger WHERE target = ? AND test_id = ? AND link_id IS ? AND email = ?
          AND send_email = 1 ORDER BY id DESC LIMIT 1`,
      )
      .get(this.target, testId, linkId ?? null, email.trim().toLowerCase());
    const last = row ? rowOf(row) : undefined;
    return last && (last.outcome === 'sending' || last.outcome === 'unknown') ? last : undefined;
  }

  /** Every e-mail attempt of a test whose outcome is not known, as bulk keys (`test|link|email`). */
  uncertainEmailKeys(testId: string): Set<string> {
    const rows = this.store
      .sql(
        `SELECT link_id, email, outcome FROM ledger WHERE id IN (SELECT max(id) FROM ledger
          WHERE target = ? AND test_id = ? AND send_email = 1 GROUP BY link_id, email)`,
      )
      .all(this.target, testId);
    return new Set(
      rows
        .filter((r) => r.outcome === 'sending' || r.outcome === 'unknown')
        .map((r) => `${testId}|${typeof r.link_id === 'string' ? r.link_id : 'default'}|${String(r.email)}`),
    );
  }

  /** Invitations made with a callback URL (callbacks reconcile checks those). */
  withCallback(): Set<string> {
    const rows = this.store
      .sql(
        'SELECT invitation_id FROM ledger WHERE target = ? AND callback_url IS NOT NULL AND invitation_id IS NOT NULL',
      )
      .all(this.target);
    return new Set(rows.map((r) => String(r.invitation_id)));
  }

  /** The invitations made between two times (ISO), oldest first; one row per invitation (its latest). */
  madeBetween(from: string, to: string, testId?: string): LedgerRow[] {
    const rows = this.store
      .sql(
        `SELECT ${COLUMNS} FROM ledger WHERE id IN (SELECT max(id) FROM ledger WHERE target = ? AND at >= ?
          AND at <= ? AND invitation_id IS NOT NULL AND (? IS NULL OR test_id = ?) GROUP BY invitation_id) ORDER BY id`,
      )
      .all(this.target, from, to, testId ?? null, testId ?? null);
    return rows.map(rowOf);
  }
}

function rowOf(r: Record<string, unknown>): LedgerRow {
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  return {
    id: Number(r.id),
    at: String(r.at),
    via: String(r.via),
    api: String(r.api),
    testId: text(r.test_id),
    linkId: text(r.link_id),
    email: text(r.email),
    name: text(r.name),
    sendEmail: r.send_email === 1,
    withheld: r.withheld === 1,
    callbackUrl: text(r.callback_url),
    outcome: OUTCOMES.find((o) => o === r.outcome) ?? 'unknown',
    invitationId: text(r.invitation_id),
    status: text(r.status),
    testUrl: text(r.test_url),
  };
}
