// `callbacks replay`: sends stored notifications from the inbox again — body byte for byte as
// received, same webhook-id — to the listener's --forward-to target (recorded in the store) or --to,
// with forwarding's delivery policy (retries with backoff). A replay reproduces the forward: to the
// recorded target it is signed as the listener signed it (same secret, same webhook-id) unless
// --no-sign; elsewhere only with --sign. A delivered replay settles the notification's dead letters
// (`inbox --failed` drops them). Exit 5 when some failed.
import type { InputOfCommand, Run } from '../../cli/command.js';
import { configDir } from '../../config/store.js';
import type { Context } from '../../context.js';
import { NotFoundError, PartialFailureError, UsageError } from '../../errors.js';
import { Printer } from '../../output/printer.js';
import { plural } from '../../util/plural.js';
import { parseIdArgs } from '../shared/invitation-ids.js';
import type decl from './replay.js';
import { COLUMNS, FIELDS } from './replay.js';
import { Forwarder, policyFrom } from './shared/delivery-policy.js';
import type { Inbox } from './shared/inbox.js';
import type { NotificationRecord as Stored } from './shared/inbox-record.js';
import { callbacksStorePath, openInbox } from './shared/open-store.js';

type Input = InputOfCommand<typeof decl>;
type Secret = { secret: string; source: string } | null;

export const run: Run<typeof decl> = async (ctx, input) => {
  await checkInput(ctx, input);
  const ids = parseIdArgs(input.ids);
  const inbox = await openInbox(ctx, input.store, { readOnly: true });
  const path = inbox?.path ?? callbacksStorePath(ctx, input.store);
  const { chosen, target } = await chooseStored(inbox, path, ids, input);
  if (!chosen.length)
    return void ctx.info(`Nothing to replay: no notification received since ${input.since} in ${path}.`);

  const rows = await replayEach(ctx, input, inbox!, chosen, target);
  await new Printer(ctx).list(rows, {
    columns: COLUMNS,
    fields: FIELDS,
  });
  const failed = rows.filter((r) => r.result === 'failed').length;
  const summary = `${rows.length - failed} of ${plural(rows.length, 'notification')} replayed to ${target}`;
  if (failed)
    throw new PartialFailureError(
      `${summary}; ${failed} failed (kept as dead letters: callbacks inbox --failed)`,
      failed,
      rows.length,
    );
  ctx.info(`${summary}.`);
};

/** Exit 2 for ids and --since together or neither, and for a --secret-file that cannot be used. */
async function checkInput(ctx: Context, input: Input): Promise<void> {
  if (input.ids.length && input.since) throw new UsageError('--since: give invitation ids or --since, not both');
  if (!input.ids.length && !input.since)
    throw new UsageError(
      '<ids>: name invitation ids or give --since',
      'e.g. assess callbacks replay 900001, or --since 1d',
    );
  if (input.secretFile && input.sign === false) throw new UsageError('--secret-file: not used with --no-sign');
  if (input.secretFile) {
    // checked before anything is read or sent (it overrides the secret the listener recorded)
    const { existingSecret } = await import('./shared/signing.js');
    await existingSecret(ctx, input.secretFile);
  }
}

/** The stored notifications to replay, each once, and where to: exit 4 for an id with none stored. */
async function chooseStored(
  inbox: Inbox | null,
  path: string,
  ids: string[],
  input: Input,
): Promise<{ chosen: Stored[]; target: string }> {
  const { forInvitations, notifications, latestForwardTarget } = await import('./shared/inbox-read.js');
  const stored = !inbox
    ? []
    : ids.length
      ? forInvitations(inbox.store, ids)
      : [...notifications(inbox.store, { sinceMs: Date.parse(input.since!) })].filter((r) => !r.quarantined);
  const seen = new Set<string>();
  // each distinct notification once (a duplicate has the same id when its body is the same)
  const chosen = stored.filter((r) => !seen.has(r.id) && !!seen.add(r.id));
  const missing = ids.filter((id) => !stored.some((r) => r.invitationId === id));
  if (missing.length)
    throw new NotFoundError(
      `no stored notification for invitation ${missing.join(', ')} in ${path}`,
      'assess callbacks inbox lists what is stored; assess callbacks reconcile finds what never arrived',
    );
  const target = input.to ?? (inbox ? latestForwardTarget(inbox.store) : undefined);
  if (!target)
    throw new UsageError(
      `--to: no target: ${path} records no --forward-to`,
      'e.g. --to http://localhost:3000/webhooks/assess',
    );
  return { chosen, target };
}

/** Sends each one in turn (until Ctrl-C), recording it delivered or a dead letter; its result rows. */
async function replayEach(
  ctx: Context,
  input: Input,
  inbox: Inbox,
  chosen: Stored[],
  target: string,
): Promise<Array<Record<string, unknown>>> {
  const signer = await replaySigner(
    ctx,
    input,
    target,
    input.to === undefined || chosen.some((r) => r.forwardTo === target),
  );
  const { recordDeadLetter, recordDelivered } = await import('./shared/forward-queue.js');
  const rows: Array<Record<string, unknown>> = [];
  const signedNote = new Set<string>();
  for (const r of chosen) {
    if (ctx.signal.aborted) break;
    const secret = await signer(r);
    if (secret) signedNote.add(secret.source);
    const forwarder = new Forwarder({ url: target, policy: policyFrom(input), secret: secret?.secret });
    const item = {
      id: r.id,
      invitationId: r.invitationId,
      status: r.status,
      body: r.body,
      contentType: r.headers['content-type'] ?? 'application/json',
    };
    const o = await forwarder.deliver(item);
    rows.push({
      id: r.id,
      invitationId: r.invitationId,
      status: r.status,
      result: o.ok ? 'delivered' : 'failed',
      httpStatus: o.ok ? o.status : null,
      tries: o.tries,
      error: o.ok ? null : o.error,
    });
    const settled = { seq: r.seq, id: r.id, target, tries: o.tries, atMs: ctx.now().getTime() };
    inbox.store.write((s) =>
      o.ok
        ? recordDelivered(s, { ...settled, via: 'replay' })
        : recordDeadLetter(s, { ...settled, error: o.error, via: 'replay' }),
    );
  }
  for (const source of signedNote)
    ctx.info(`Signed (Standard Webhooks, the same webhook-id per notification) with the secret from ${source}.`);
  return rows;
}

/**
 * The secret each replayed notification is signed with: --no-sign none; to the recorded target
 * (`recorded`) the one the listener signed that notification with (--secret-file overrides);
 * elsewhere one only with --sign.
 */
async function replaySigner(
  ctx: Context,
  input: { sign?: boolean; secretFile?: string },
  target: string,
  recorded: boolean,
): Promise<(r: Stored) => Promise<Secret>> {
  const { resolveSecret } = await import('./shared/signing.js');
  const cache = new Map<string, Secret>();
  const get = async (
    key: string,
    secretFile: string | undefined,
    env: Record<string, string | undefined>,
  ): Promise<Secret> => {
    if (!cache.has(key)) {
      const s = await resolveSecret({
        secretFile,
        env,
        configDir: configDir(ctx.env),
        profile: ctx.globals.profile,
        create: input.sign === true,
        secrets: ctx.secrets,
      });
      cache.set(key, { secret: s.secret, source: s.source });
    }
    return cache.get(key)!;
  };
  const explicit = () => get('explicit', input.secretFile, ctx.env);
  return async (r) => {
    if (input.sign === false) return null;
    if (recorded && r.forwardTo === target && r.signedWith) {
      if (input.secretFile) return explicit();
      if (r.signedWith === 'ASSESS_WEBHOOK_SECRET') {
        if (!ctx.env.ASSESS_WEBHOOK_SECRET?.trim())
          throw new UsageError(
            `--secret-file: the listener signed its forwards to ` +
              `${target} with ASSESS_WEBHOOK_SECRET, which is not set now`,
            'set ASSESS_WEBHOOK_SECRET, give --secret-file FILE, or send unsigned with --no-sign',
          );
        return get('env', undefined, ctx.env);
      }
      return get(`file:${r.signedWith}`, r.signedWith, {});
    }
    return input.sign ? explicit() : null;
  };
}
