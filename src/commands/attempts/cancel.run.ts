// attempts cancel: on a terminal asks about the candidate and the test first, then cancels; a
// refusal is explained from the invitation's own status.
import type { Run } from '../../cli/command.js';
import type * as R from '../../api/read/v3.js';
import { Printer } from '../../output/printer.js';
import { confirmAction, nothingChanged } from '../shared/confirm.js';
import { ApiError } from '../../api/errors.js';
import { OutcomeError } from '../../errors.js';
import type { V3Client } from '../../api/v3.js';
import type cancel from './cancel.js';
import { CANCEL_COLUMNS } from './cancel.js';

export const run: Run<typeof cancel> = async (ctx, { invitationId }) => {
  const api = await ctx.api();
  let question = '';
  if (!ctx.globals.yes && ctx.globals.interactive) {
    // Ask about the candidate and the test, not a bare number: look the invitation up first
    // (an unknown id fails here, before the question).
    const r = await api.getReport(invitationId);
    const who = [r.candidateName, r.candidateEmail].filter(Boolean).join(', ') || 'the candidate';
    const test = r.testName ?? `test ${r.testId ?? '?'}`;
    question =
      `Cancel the invitation of ${who} to "${test}" (${invitationId}, ${r.status ?? 'status unknown'})? ` +
      `They will no longer be able to take the test.`;
  }
  if (!(await confirmAction(ctx, question, `cancelling invitation ${invitationId}`))) return nothingChanged(ctx);
  const res = await api.cancel(invitationId).catch(async (err: unknown) => {
    const found = await explainRefusal(api, invitationId, err);
    if ('error' in found) throw found.error;
    ctx.warn(
      `the answer to the cancel of ${invitationId} was lost and the repeat was refused; read back, the report shows ` +
        `it cancelled (confirmed)`,
    );
    return found.cancelled;
  });
  ctx.info(`Cancelled invitation ${invitationId}.`);
  // `confirmed` marks a read-back (said on stderr): not a service field, so not in the output
  const { confirmed: _readBack, ...cancelled } = res as R.Cancelled & { confirmed?: true };
  await new Printer(ctx).object(cancelled, { fields: CANCEL_COLUMNS });
};

/**
 * The service refuses to cancel anything but a Pending invitation with one sentence for every
 * state ("state in inprogress, complete, and expired can not be cancelled"), also for one that is
 * cancelled already: the invitation's own status says which it is (exit 1 either way) — unless an
 * earlier try of this run may have been carried out (a 5xx, a timeout, a connection lost after
 * sending, then the repeat refused): Cancelled then means this run cancelled it (the client's own
 * read-back may have failed where this one succeeds), and that is a success.
 */
async function explainRefusal(
  api: V3Client,
  invitationId: string,
  err: unknown,
): Promise<{ error: unknown } | { cancelled: R.Cancelled & { confirmed: true } }> {
  if (!(err instanceof ApiError) || (err.status !== 400 && err.status !== 409)) return { error: err };
  const status = await api
    .getReport(invitationId)
    .then((r) => (r.status == null ? undefined : String(r.status)))
    .catch(() => undefined);
  if (status === undefined) return { error: err };
  const said = err.messages.length ? `the service said: ${err.messages.join('; ')}` : undefined;
  if (status === 'Cancelled' && err.maybeApplied)
    return { cancelled: { testInvitationId: invitationId, status: 'Cancelled', confirmed: true } };
  if (status === 'Cancelled')
    return {
      error: new OutcomeError(
        `invitation ${invitationId} is already cancelled; nothing changed`,
        'only a Pending invitation can be cancelled',
      ),
    };
  return {
    error: new OutcomeError(
      `invitation ${invitationId} cannot be cancelled: it is ${status} (only a Pending invitation can be cancelled)`,
      status === 'Complete' || status === 'Expired' || status === 'Test Left' || status === 'Terminated'
        ? `to let the candidate try again: assess reattempt ${invitationId} --start now --end 7d --tz <zone>`
        : said,
    ),
  };
}
