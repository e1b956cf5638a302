// Who an earlier bulk run (or an invite whose answer was lost) may have e-mailed already: the
// sending pass of invite --from-csv invites them without an e-mail unless --yes (bulk-send.ts).
import type { BulkRun } from '../../../bulk/run.js';
import type { Context } from '../../../context.js';
import type { Ledger } from '../../shared/ledger.js';
import type { Checked } from './bulk.js';
import { plural, were } from '../../../util/plural.js';

/**
 * Candidates an earlier attempt was inviting with an e-mail when it stopped (kill -9, a power
 * cut), or whose invitation failed after the request may have arrived (a timeout, a reset, a
 * 5xx): the service may have e-mailed them already. Said by name; with --yes they are e-mailed
 * again (maybe a second e-mail), else invited without one.
 */
export function uncertainEmails(
  ctx: Context,
  run: BulkRun,
  ledger: Ledger,
  testId: string,
  c: Checked,
  resend: boolean,
) {
  const fromLedger = ledger.store.read(() => ledger.uncertainEmailKeys(testId));
  const keys = new Set([...run.journal.inFlightEarlier(), ...fromLedger].filter((k) => c.firstLine.has(k)));
  if (!keys.size) return keys;
  const who = [...keys]
    .slice(0, 20)
    .map((k) => k.split('|').at(-1))
    .join(', ');
  const what =
    `${plural(keys.size, 'candidate')} ${were(keys.size)} being invited with an e-mail when an earlier attempt ` +
    `stopped (or failed without ` +
    'knowing whether the service acted); the service may have e-mailed them already';
  ctx.warn(
    resend
      ? `${what}, and --yes e-mails them again (maybe a second e-mail): ${who}${keys.size > 20 ? ', …' : ''}`
      : `${what}: they are invited without an e-mail this time (emailWithheld in the results; run again with --yes ` +
          `to e-mail them anyway): ${who}${keys.size > 20 ? ', …' : ''}`,
  );
  return keys;
}
