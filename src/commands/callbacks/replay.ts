// `assess callbacks replay <invitationId…> | --since T [--to URL]`: sends stored notifications
// from the inbox again — body byte for byte as received, same webhook-id — to the listener's
// --forward-to target (recorded in the store) or --to, with forwarding's delivery policy
// (retries with backoff). A replay reproduces the forward: to the recorded target it is signed
// as the listener signed it (same secret, same webhook-id) unless --no-sign; elsewhere only with
// --sign. A delivered replay settles the notification's dead letters (`inbox --failed` drops
// them). Exit 5 when some failed.
import * as z from 'zod/mini';
import { fieldsOf } from '../../cli/json-fields.js';
import { defineCommand, zx, arg, flag } from '../../cli/command.js';
import { configDir } from '../../config/store.js';
import { NotFoundError, PartialFailureError, UsageError } from '../../errors.js';
import { Printer } from '../../output/printer.js';
import { timeArg } from '../../util/time.js';
import { parseIdArgs } from '../shared/invitation-ids.js';
import { retryFlags } from './shared/listen-extras.js';
import { Forwarder, policyFrom } from './shared/delivery-policy.js';
import { STORE_FLAG, callbacksStorePath, openInbox } from './shared/open-store.js';
import { plural } from '../../util/plural.js';

const COLUMNS = [
  { key: 'invitationId', header: 'Invitation', priority: 1, kind: 'id' },
  { key: 'status', header: 'Status', priority: 3, kind: 'status' },
  { key: 'result', header: 'Result', priority: 2, kind: 'status' },
  { key: 'tries', header: 'Tries', priority: 5 },
  { key: 'error', header: 'Error', priority: 4 },
] as const;
const FIELDS = fieldsOf(['id', 'invitationId', 'status', 'result', 'httpStatus', 'tries', 'error'], COLUMNS);

export default defineCommand({
  name: 'replay',
  args: {
    ids: arg({ optional: true, variadic: true }, () => z._default(z.array(z.string()), [])),
  },
  description: 'Send stored notifications from the inbox again (body unchanged) to the forward target or --to',
  examples: [
    'assess callbacks replay 900001 900002',
    'assess callbacks replay --since 1d --to http://localhost:3000/webhooks/assess --sign --secret-file webhook.secret',
  ],
  flags: {
    since: flag('every notification received from this time on (instead of ids)', { value: 'T' }, () =>
      z.optional(timeArg('past')),
    ),
    to: flag("where to send them (default: the listener's --forward-to recorded in the store)", { value: 'url' }, () =>
      z.optional(zx.url()),
    ),
    ...STORE_FLAG,
    sign: flag(
      'sign them (Standard Webhooks headers); to the recorded target they are signed as the listener signed them anyway',
      { negate: 'send them unsigned, also to a target the listener signed for' },
      () => z.optional(z.boolean()),
    ),
    secretFile: flag(
      'the signing secret (default: the one the listener used, else ASSESS_WEBHOOK_SECRET, else the one kept per profile)',
      { value: 'file' },
      () => z.optional(z.string().check(z.minLength(1, 'must name a file'))),
    ),
    ...retryFlags('send'),
  },
  jsonFields: FIELDS,
  async run(ctx, input) {
    if (input.ids.length && input.since) throw new UsageError('--since: give invitation ids or --since, not both');
    if (!input.ids.length && !input.since)
      throw new UsageError(
        '<ids>: name invitation ids or give --since',
        'e.g. assess callbacks replay 900001, or --since 1d',
      );
    if (input.secretFile && input.sign === false) throw new UsageError('--secret-file: not used with --no-sign');
    if (input.secretFile) {
      // checked before anything is read or sent (it overrides the secret the listener recorded)
      const { resolveSecret } = await import('./shared/signing.js');
      await resolveSecret({
        secretFile: input.secretFile,
        env: ctx.env,
        configDir: configDir(ctx.env),
        profile: ctx.globals.profile,
        create: false,
        secrets: ctx.secrets,
      });
    }
    const ids = parseIdArgs(input.ids);
    const inbox = await openInbox(ctx, input.store, { readOnly: true });
    const path = inbox?.path ?? callbacksStorePath(ctx, input.store);
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
    if (!chosen.length)
      return void ctx.info(`Nothing to replay: no notification received since ${input.since} in ${path}.`);

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
      inbox!.store.write((s) =>
        o.ok
          ? recordDelivered(s, { ...settled, via: 'replay' })
          : recordDeadLetter(s, { ...settled, error: o.error, via: 'replay' }),
      );
    }
    for (const source of signedNote)
      ctx.info(`Signed (Standard Webhooks, the same webhook-id per notification) with the secret from ${source}.`);
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
  },
});

type Stored = import('./shared/inbox-record.js').NotificationRecord;
type Secret = { secret: string; source: string } | null;

/**
 * The secret each replayed notification is signed with: --no-sign none; to the recorded target
 * (`recorded`) the one the listener signed that notification with (--secret-file overrides);
 * elsewhere one only with --sign.
 */
async function replaySigner(
  ctx: import('../../context.js').Context,
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
            `--secret-file: the listener signed its forwards to ${target} with ASSESS_WEBHOOK_SECRET, which is not set now`,
            'set ASSESS_WEBHOOK_SECRET, give --secret-file FILE, or send unsigned with --no-sign',
          );
        return get('env', undefined, ctx.env);
      }
      return get(`file:${r.signedWith}`, r.signedWith, {});
    }
    return input.sign ? explicit() : null;
  };
}
