// No second e-mail by accident. When an earlier attempt that asked the service to e-mail a
// candidate has no known outcome (its answer was lost, or the process died while it was sent),
// the service may have e-mailed them already, and the API cannot say whether it did. A new
// invitation with an e-mail for that candidate is then sent without one (an invite is idempotent
// per candidate, so this only learns the invitation), unless --yes (or "yes" on a terminal) asks
// for the e-mail again. An assistant (assess mcp) cannot give that answer: its call never e-mails twice.
import type { Context } from '../../context.js';
import { confirmAction } from './confirm.js';
import type { LedgerRow } from './ledger.js';

/** Whether to e-mail a candidate whom `earlier` may have e-mailed already. */
export async function emailAgain(ctx: Context, earlier: LedgerRow): Promise<boolean> {
  const what =
    `${earlier.email ?? 'the candidate'} may have been e-mailed by an earlier attempt ` +
    `(${earlier.at}, ${earlier.via}) whose answer never came`;
  if (ctx.globals.via === 'mcp') return false;
  if (ctx.globals.yes) {
    ctx.warn(`${what}; e-mailing again, as --yes asks: this may be their second e-mail.`);
    return true;
  }
  if (!ctx.globals.interactive) return false;
  return confirmAction(ctx, `${what}. E-mail them again?`, 'e-mailing a candidate again');
}

/** Said after an invitation sent without the e-mail that was asked for. */
export function withheldNotice(ctx: Context, earlier: LedgerRow, id: string, status: string | null | undefined): void {
  const who = earlier.email ?? 'the candidate';
  const now =
    status && status.toLowerCase() !== 'pending'
      ? `they have it (${status}): no e-mail is needed`
      : `to e-mail them anyway: the same command with --yes${ctx.globals.via === 'mcp' ? ' on the command line' : ''}`;
  ctx.warn(
    `not e-mailed: an earlier invite of ${who} (${earlier.at}, ${earlier.via}) may have e-mailed them already, ` +
      `and the service cannot tell whether it did. Invitation ${id} is ${status ?? 'there'}; ${now}.`,
  );
}
