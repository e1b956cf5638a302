// What invite, invite --api v2 and reattempt share around their one request: the attempt goes
// into the profile's ledger (ledger.ts) before it is sent, and its outcome once known. The
// store is opened before anything is sent, so a store that cannot be written (a full disk, a
// read-only directory, a newer assess's file) stops the command with exit 2, sending nothing.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ApiError, NetworkError, ResponseShapeError } from '../../api/errors.js';
import { mayHaveBeenApplied } from '../../api/read-back.js';
import { configDir } from '../../config/store.js';
import type { Context } from '../../context.js';
import { openProfileStore, storeTarget } from '../../store/profile-store.js';
import { Ledger, LEDGER_SCHEMA, type Attempt, type Settled } from './ledger.js';

/** The profile's ledger for the service this command reaches. */
export async function openLedger(ctx: Context): Promise<Ledger> {
  const target = await storeTarget(ctx);
  return new Ledger(openProfileStore(ctx, [LEDGER_SCHEMA]), target, () => ctx.now());
}

/**
 * `fn` with the ledger, closed when it is done: the tool calls of `assess mcp` share one process
 * and end long before it does.
 */
export async function withLedger<T>(ctx: Context, fn: (ledger: Ledger) => Promise<T>): Promise<T> {
  const ledger = await openLedger(ctx);
  try {
    return await fn(ledger);
  } finally {
    ledger.store.close();
  }
}

/** The command as the ledger names it; `mcp invite` when an assistant called it through `assess mcp`. */
export const viaOf = (ctx: Context, command: string): string =>
  ctx.globals.via ? `${ctx.globals.via} ${command}` : command;

/** One candidate's invitation as the ledger keeps it (`invite`, `invite --link`, v3 or v2). */
export function inviteAttempt(
  ctx: Context,
  input: { testId: string; link?: string; email?: string; name?: string; callbackUrl?: string },
  how: Pick<Attempt, 'api' | 'sendEmail' | 'withheld'>,
): Attempt {
  const { testId, link, email, name, callbackUrl } = input;
  return { via: viaOf(ctx, link ? 'invite --link' : 'invite'), testId, linkId: link, email, name, callbackUrl, ...how };
}

/** Whether a failed request may still have been carried out by the service (its answer was lost). */
export function mayHaveActed(err: unknown): boolean {
  if (err instanceof ResponseShapeError) return true; // a 2xx the CLI could not read
  if (err instanceof ApiError && err.status < 400) return true; // an answer that is not an error of the service's
  return mayHaveBeenApplied(err);
}

/** Whether `err` is the service's (or the network's) answer, as opposed to something that stopped it here. */
export const isServiceFailure = (err: unknown): err is ApiError | NetworkError | ResponseShapeError =>
  err instanceof ApiError || err instanceof NetworkError || err instanceof ResponseShapeError;

/**
 * Sends one invitation request with its ledger row: recorded before, settled after. A failure
 * the service may have acted on stays `unknown` (and, when it asked for an e-mail, the error says
 * the candidate may already be invited and e-mailed, and how to check); one that never left here
 * (an assistant's dry run) leaves no row.
 */
export async function sendRecorded<T>(
  ledger: Ledger,
  attempt: Attempt,
  send: () => Promise<T>,
  settled: (res: T) => Settled,
): Promise<T> {
  const id = ledger.store.write(() => ledger.begin(attempt));
  let res: T;
  try {
    res = await send();
  } catch (err) {
    if (!isServiceFailure(err)) {
      ledger.store.write(() => ledger.forget(id));
      throw err;
    }
    const unknown = mayHaveActed(err);
    ledger.store.write(() => ledger.settle(id, { outcome: unknown ? 'unknown' : 'failed' }));
    // (a reattempt's own error says what a repeat does: it returns the same reattempt)
    throw unknown && attempt.sendEmail && !attempt.reattemptOf ? mayBeInvited(err, attempt) : err;
  }
  ledger.store.write(() => ledger.settle(id, settled(res)));
  return res;
}

/** The error of a lost answer to an invitation with an e-mail: what may have happened, and how to check. */
function mayBeInvited(err: unknown, a: Attempt): unknown {
  const hint =
    `${a.email ?? 'the candidate'} may already be invited and e-mailed: the service may have acted before its answer ` +
    'was lost. The same command again asks the service for the invitation without e-mailing (on a terminal it ' +
    'asks you first; --yes e-mails anyway); ' +
    'assess attempts list --state pending --from 1d lists what this profile invited.';
  if (err instanceof ApiError || err instanceof NetworkError) {
    err.unconfirmed = hint;
    return err;
  }
  return err instanceof ResponseShapeError ? new ResponseShapeError(err.message, err.request, hint) : err;
}

/**
 * The invitations this profile made with a callback URL on the service this command reaches
 * (callbacks reconcile checks those), and the store that says so.
 */
export async function invitationsWithCallback(ctx: Context): Promise<{ ids: Set<string>; store: string }> {
  return withLedger(ctx, async (ledger) => {
    noteOldLedger(ctx, ledger.store.path);
    return { ids: ledger.store.read(() => ledger.withCallback()), store: ledger.store.path };
  });
}

/** An older assess kept its ledger as NDJSON; it is not read (nor changed): said once where the ledger is read. */
export function noteOldLedger(ctx: Context, store: string): void {
  const old = join(configDir(ctx.env), 'callbacks', `${ctx.globals.profile}.ledger.ndjson`);
  if (existsSync(old))
    ctx.info(
      `note: ${old} is the ledger of an older assess; it is not read (the ledger is in ${store}), and left as it is`,
    );
}
