// The sending pass of `invite --from-csv` (bulk.ts checked every row first): rows streamed from
// the CSV, the ones the journal lists as done recorded as skipped, the others sent by the pool.
// Each row's ledger entry and journal row are written in one transaction: before the request
// when it asks for an e-mail (so a kill leaves it "in flight"), and with its outcome once answered.
import { ApiError, type NetworkError, type ResponseShapeError } from '../../../api/errors.js';
import { Pace } from '../../../api/pace.js';
import type { V3Client } from '../../../api/v3.js';
import { bulkClient, defaultConcurrency } from '../../../bulk/client.js';
import { errorFields } from '../../../bulk/error-fields.js';
import { noteOldJournal, openJournal } from '../../../bulk/journal-store.js';
import { runPool, type Release } from '../../../bulk/pool.js';
import { BulkRun, type OutcomeWords } from '../../../bulk/run.js';
import { GroupCommit } from '../../../bulk/group-commit.js';
import { RUNS_SCHEMA } from '../../../bulk/run-state.js';
import type { Context } from '../../../context.js';
import type { Store } from '../../../store/db.js';
import { openProfileStore, storeTarget } from '../../../store/profile-store.js';
import { Ledger, LEDGER_SCHEMA, type Attempt } from '../../shared/ledger.js';
import { noteEmbeddedUrls } from '../../shared/live-sandbox.js';
import { isServiceFailure, mayHaveActed, viaOf } from '../../shared/record-invite.js';
import { invitationSettled, inviteBody, type InviteInput } from './body.js';
import type { BulkInviteInput, Checked, InvitePaths } from './bulk.js';
import { checkRow, type CsvRow, type RowEvent } from './csv-rows.js';
import { UrlTable } from './url-table.js';
import { bulkEmailNotice } from '../../shared/email-notice.js';
import { closedInvitations } from '../../shared/reopened.js';
import { uncertainEmails } from './uncertain-emails.js';
import { plural } from '../../../util/plural.js';

/** This many failures in a row (no success between) means the service refuses everything. */
const BREAKER = 20;
/** The summary line's words for the outcomes of the results file. */
const WORDS: OutcomeWords = {
  invited: (n) => `${n} invited`,
  reopened: (n) => `${n} reopened (they were cancelled or expired)`,
  existing: (n) => `${plural(n, 'existing invitation')} returned`,
  skipped: (n) => `${n} already invited (earlier run)`,
  duplicate: (n) => `${plural(n, 'duplicate row')} skipped`,
  invalid: (n) => `${plural(n, 'invalid row')} not sent`,
  failed: (n) => `${n} failed`,
};

export interface CsvSource {
  path: string;
  label: string;
  /** The rows again, from the top. */
  rows: () => AsyncGenerator<RowEvent>;
}

type ServiceFailure = ApiError | NetworkError | ResponseShapeError;

interface Item {
  row: CsvRow;
  key: string;
  input: InviteInput;
}

export async function sendRows(
  ctx: Context,
  input: BulkInviteInput,
  csv: CsvSource,
  c: Checked,
  paths: InvitePaths,
): Promise<void> {
  const pace = new Pace({ cap: input.rate });
  const client = await bulkClient(ctx, pace); // a missing key fails here, before any file is touched
  const concurrency = input.concurrency ?? (await defaultConcurrency(ctx));
  const home = openProfileStore(ctx, [LEDGER_SCHEMA, RUNS_SCHEMA]);
  const ledger = new Ledger(home, await storeTarget(ctx), () => ctx.now());
  const journal = await openJournal(ctx, { kind: 'invite', name: paths.name, file: paths.journal, home, lock: true });
  if (!paths.journal) noteOldJournal(ctx, paths.oldJournal, journal);
  const run = BulkRun.start(ctx, journal, paths.results, WORDS);
  const s = new BulkInvite(ctx, run, home, ledger, client, input, c);
  s.uncertain = uncertainEmails(ctx, run, ledger, input.testId, c, s.resend);
  const toSend = s.toSend();
  // the service answers a reopened invitation as a new one: its closed ones are looked up first
  if (toSend) s.closed = await closedInvitations(ctx, client, input.testId);
  run.startProgress(toSend, 'Inviting', 'sent', pace);
  let fatal: unknown;
  try {
    await runPool(s.sendable(csv), { concurrency, signal: ctx.signal }, (item, release) => s.send(item, release));
  } catch (err) {
    fatal = err;
  }
  if (fatal) throw await run.stopped(fatal, `Invitations from ${csv.label}`);
  run.progress?.stop(); // the bar's line is cleared before the table
  await s.urls.print(run.resultsPath);
  await noteEmbeddedUrls(ctx);
  const emailed = input.defaults.sendEmail === true;
  if (run.tally.done) ctx.info(bulkEmailNotice(emailed, run.resultsPath));
  await run.finish(`Invitations from ${csv.label}`, s.notes(), { emailed });
}

/** One sending pass: what it counts, and how a row is skipped, sent and written down. */
class BulkInvite {
  /** --yes: candidates an earlier attempt may have e-mailed get the e-mail again (else none: emailWithheld). */
  readonly resend: boolean;
  uncertain = new Set<string>();
  /** The test's cancelled and expired invitations (id → which) before the run: a row answered with one was reopened. */
  closed: ReadonlyMap<string, string> = new Map();
  readonly urls: UrlTable;
  private readonly via: string;
  private failuresInARow = 0;
  /** Results lines of this run marked maybeEmailedTwice (earlier runs' included). */
  private maybeTwice = 0;
  private withheld = 0;
  private readonly commits = new GroupCommit();

  constructor(
    ctx: Context,
    private readonly run: BulkRun,
    private readonly home: Store,
    private readonly ledger: Ledger,
    private readonly client: V3Client,
    private readonly input: BulkInviteInput,
    private readonly c: Checked,
  ) {
    this.resend = ctx.globals.yes;
    this.urls = new UrlTable(ctx);
    this.via = viaOf(ctx, 'invite --from-csv');
  }

  /** Rows the journal lists as done are skipped, unless --yes is to e-mail a row invited without one. */
  private doneBefore(key: string, sendEmail: boolean | undefined) {
    const done = this.run.journal.get(key);
    return done && !(this.resend && done.emailWithheld === true && sendEmail) ? done : undefined;
  }

  toSend(): number {
    let n = 0;
    for (const k of this.c.firstLine.keys()) if (!this.doneBefore(k, this.input.defaults.sendEmail === true)) n++;
    return n;
  }

  /** Rows that must be sent; everything else is recorded here as it streams past. */
  async *sendable(csv: CsvSource): AsyncGenerator<Item> {
    const { run, input } = this;
    for await (const ev of csv.rows()) {
      if (ev.kind === 'blank') continue; // counted by the first pass
      if (ev.kind === 'bad') {
        // --skip-invalid: skipped, not failed (no exit 5 on its own)
        run.record({ line: ev.bad.line, outcome: 'invalid', errors: ev.bad.errors }, 'skipped');
        continue;
      }
      const { row } = ev;
      const r = checkRow(row.fields, input.testId, input.defaults);
      if (!r.ok) {
        run.record({ line: row.line, row: row.fields, outcome: 'invalid', errors: r.errors }, 'skipped');
        continue;
      }
      const first = this.c.firstLine.get(r.key);
      if (first !== row.line) {
        const line = { line: row.line, row: row.fields, outcome: 'duplicate', duplicateOf: first, key: r.key };
        run.record(line, 'skipped');
        continue;
      }
      const done = this.doneBefore(r.key, r.input.sendEmail);
      if (done) this.skip(row, r.key, done);
      else yield { row, key: r.key, input: r.input };
    }
  }

  private skip(row: CsvRow, key: string, done: Record<string, unknown>): void {
    const twice = this.run.journal.maybeEmailedTwice(key) || done.maybeEmailedTwice === true;
    if (twice) this.maybeTwice++;
    this.run.record(
      {
        line: row.line,
        row: row.fields,
        outcome: 'skipped',
        reason: 'already invited in an earlier run (journal)',
        earlierOutcome: done.outcome,
        ...serviceFields(done),
        ...(twice ? { maybeEmailedTwice: true } : {}),
        ...(done.emailWithheld === true ? { emailWithheld: true } : {}),
      },
      'skipped',
    );
    this.urls.add(row.line, row.fields, serviceFields(done), 'earlier run');
  }

  async send({ row, key, input: inv }: Item, release: Release): Promise<void> {
    const { run, ledger } = this;
    // an earlier attempt may have e-mailed this candidate: without --yes, no second e-mail
    const withhold = inv.sendEmail === true && !this.resend && this.uncertain.has(key);
    const attempt = this.attemptOf(inv, withhold);
    const body = inviteBody(withhold ? { ...inv, sendEmail: false } : inv);
    // the ledger's entry and the journal's row, before the request: a kill leaves them "in flight"
    let entry: number | undefined;
    let again = false;
    if (attempt.sendEmail)
      await this.both(
        () => (entry = ledger.begin(attempt)),
        () => (again = run.journal.markSending(key)),
      );
    try {
      // answered: the next row's request goes out before this answer is read and written down
      // (and when the request failed without an answer, the slot is given back all the same)
      const call = { onAnswered: release, emails: inv.sendEmail === true && !withhold };
      const testId = this.input.testId;
      const res = await (
        inv.link ? this.client.inviteByLink(testId, inv.link, body, call) : this.client.invite(testId, body, call)
      ).finally(release);
      this.failuresInARow = 0;
      const settled = invitationSettled(res);
      const was = this.closed.get(String(res.testInvitationId));
      const outcome = was ? 'reopened' : settled.outcome;
      const fields = {
        testInvitationId: res.testInvitationId,
        testUrl: res.testUrl,
        status: res.status ?? null,
        emailed: attempt.sendEmail,
        ...(was ? { reopened: was } : {}),
      };
      const flag = { ...(again ? { maybeEmailedTwice: true } : {}), ...(withhold ? { emailWithheld: true } : {}) };
      if (again) this.maybeTwice++;
      if (withhold) this.withheld++;
      await this.both(
        () => (entry === undefined ? ledger.add(attempt, settled) : ledger.settle(entry, settled)),
        () => run.journal.append({ k: key, line: row.line, outcome, ...fields, ...flag }),
      );
      run.record({ line: row.line, row: row.fields, outcome, ...fields, ...flag }, 'done');
      this.urls.add(row.line, row.fields, fields, outcome);
    } catch (err) {
      if (!isServiceFailure(err)) throw err;
      await this.failed({ row, key, input: inv }, err, entry, again);
    }
  }

  /**
   * Every outcome is journaled: a failure that may have reached the service counts as a possible
   * e-mail for the next run; one the service surely refused does not.
   */
  private async failed(
    { row, key, input: inv }: Item,
    err: ServiceFailure,
    entry: number | undefined,
    again: boolean,
  ): Promise<void> {
    const { run, ledger } = this;
    const sent = mayHaveActed(err);
    const flag = again && sent ? { maybeEmailedTwice: true } : {};
    await this.both(
      () => entry !== undefined && ledger.settle(entry, { outcome: sent ? 'unknown' : 'failed' }),
      () => run.journal.markFailed(key, { line: row.line, error: errorFields(err), ...flag }, sent),
    );
    if (again && sent) this.maybeTwice++;
    // the row has its outcome in the results (and the tally) also when it stops the run
    run.record({ line: row.line, row: row.fields, outcome: 'failed', error: errorFields(err), ...flag }, 'failed');
    // A refused key or an unknown test (or another account's) fails every row alike: stop at once.
    if (err instanceof ApiError && (err.kind === 'auth' || err.kind === 'not_found') && !inv.link) throw err;
    if (++this.failuresInARow >= BREAKER) throw err;
  }

  /**
   * A row's ledger entry and its journal row, committed with the other rows' of this turn of the
   * event loop (src/bulk/group-commit.ts): in one transaction when the journal is in the profile's
   * store, else one in each (an invitation made is in the ledger even when a --journal file on a
   * full disk cannot take its row).
   */
  private async both(toLedger: () => unknown, toJournal: () => unknown): Promise<void> {
    const journal = this.run.journal.store;
    if (journal === this.home)
      return this.commits.run(this.home, () => {
        toLedger();
        toJournal();
      });
    await Promise.all([
      this.commits.run(this.home, () => void toLedger()),
      this.commits.run(journal, () => void toJournal()),
    ]);
  }

  private attemptOf(inv: InviteInput, withhold: boolean): Attempt {
    return {
      via: this.via,
      api: 'v3',
      testId: this.input.testId,
      linkId: inv.link,
      email: inv.email,
      name: inv.name,
      sendEmail: inv.sendEmail === true && !withhold,
      withheld: withhold,
      callbackUrl: inv.callbackUrl,
    };
  }

  /** What the summary line adds after the counts. */
  notes(): string {
    const n = [
      this.c.blank && `${plural(this.c.blank, 'blank row')} skipped`,
      this.maybeTwice && `${this.maybeTwice} may have been e-mailed twice: marked maybeEmailedTwice`,
      this.withheld &&
        `${this.withheld} not e-mailed again (an earlier run may have; --yes e-mails them): marked emailWithheld`,
    ]
      .filter(Boolean)
      .join(', ');
    return n ? ` (${n})` : '';
  }
}

function serviceFields(e: Record<string, unknown>) {
  return { testInvitationId: e.testInvitationId, testUrl: e.testUrl, status: e.status };
}
