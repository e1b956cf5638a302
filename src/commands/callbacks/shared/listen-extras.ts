// What `callbacks listen` adds for "never miss a completion": the durable inbox (written before
// the 200), forwarding with a delivery policy (retries, bounded queue, dead letters) and
// Standard Webhooks signing. Kept out of listen.ts so that file stays about receiving.
import * as z from 'zod/mini';
import { flag, zx } from '../../../cli/command.js';
import { configDir } from '../../../config/store.js';
import type { Context } from '../../../context.js';
import { UsageError } from '../../../errors.js';
import { durationArg, fmt } from '../../../util/duration.js';
import type { Received } from './receiver.js';
import { parseSize } from './queue.js';
import { readAs } from '../../../util/read-as.js';
import { unsettledForwards } from './forward-log.js';
import { Forwarder, POLICY_DEFAULTS, type DeliveryPolicy, type Outgoing } from './delivery-policy.js';
import { safeText } from '../../shared/statuses.js';
import { resolve } from 'node:path';
import type { InboxWriter, NotificationRecord } from './inbox.js';
import { FORWARDED_BY, forwardedByValue } from './self-forward.js';

/**
 * --forward-retries, --forward-timeout, --forward-backoff: the retry policy of what `callbacks
 * listen` forwards and `callbacks replay` sends.
 */
export function retryFlags(what: 'forward' | 'send') {
  return {
    forwardRetries: flag(
      `retries of a failed ${what} (5xx, 408, 429, timeout, connection error)`,
      { value: 'n', default: String(POLICY_DEFAULTS.retries) },
      () => zx.int(0, 20, 5),
    ),
    forwardTimeout: flag(
      what === 'forward' ? 'per forward try' : 'per try',
      { value: 'duration', default: fmt(POLICY_DEFAULTS.timeoutMs) },
      () => durationArg('10s', 100, 600_000),
    ),
    forwardBackoff: flag(
      'wait before the first retry; doubled per retry, at most 30s',
      { value: 'duration', default: fmt(POLICY_DEFAULTS.backoffMs) },
      () => durationArg('500ms', 0, 30_000),
    ),
  };
}

// Each schema is built when a command validates (not when any `callbacks` command loads): a usage
// error of `callbacks process` need not build listen's and replay's flag schemas.
export const LISTEN_EXTRA_FLAGS = {
  inbox: flag(
    'durable inbox: each notification is appended (NDJSON) before the 200 (default: <config dir>/inbox/<profile>.ndjson)',
    { value: 'file', negate: 'keep no inbox (notifications are then only printed, forwarded or run)' },
    () => z.optional(z.union([z.string().check(z.minLength(1, 'must name a file, e.g. ./inbox.ndjson')), z.boolean()])),
  ),
  sign: flag('sign what --forward-to sends (Standard Webhooks webhook-id/-timestamp/-signature headers)', () =>
    z.optional(z.boolean()),
  ),
  secretFile: flag(
    'the signing secret (default: ASSESS_WEBHOOK_SECRET, else one generated and kept per profile)',
    { value: 'file' },
    () => z.optional(z.string().check(z.minLength(1, 'must name a file, e.g. ./webhook.secret'))),
  ),
  printSecret: flag('print the signing secret (generating it if needed) and exit', () => z.optional(z.boolean())),
  ...retryFlags('forward'),
  forwardQueue: flag(
    'notifications waiting to be forwarded at most; more become dead letters',
    { value: 'n', default: String(POLICY_DEFAULTS.queueSize) },
    () => zx.int(1, 1_000_000, 1000),
  ),
  forwardQueueBytes: flag(
    'bytes of notifications waiting to be forwarded at most (default 64MB; e.g. 512KB)',
    { value: 'size' },
    () => queueBytesArg(POLICY_DEFAULTS.queueBytes),
  ),
};

/** A queue's size in bytes (`64MB`, `512KB`), at least 1KB; `fallback` when not given. */
export const queueBytesArg = (fallback: number) =>
  z._default(
    readAs((text, refuse) => {
      const n = parseSize(text);
      return n === undefined || n < 1024 ? refuse('must be a size of at least 1KB, e.g. 64MB or 512KB') : n;
    }),
    fallback,
  );

export interface ListenExtraInput {
  inbox?: string | boolean;
  sign?: boolean;
  secretFile?: string;
  printSecret?: boolean;
  forwardTo?: string;
  forwardRetries: number;
  forwardTimeout: number;
  forwardBackoff: number;
  forwardQueue: number;
  forwardQueueBytes: number;
}

export const policyFrom = (i: {
  forwardRetries: number;
  forwardTimeout: number;
  forwardBackoff: number;
  forwardQueue?: number;
  forwardQueueBytes?: number;
}): DeliveryPolicy => ({
  ...POLICY_DEFAULTS,
  retries: i.forwardRetries,
  timeoutMs: i.forwardTimeout,
  backoffMs: i.forwardBackoff,
  queueSize: i.forwardQueue ?? POLICY_DEFAULTS.queueSize,
  queueBytes: i.forwardQueueBytes ?? POLICY_DEFAULTS.queueBytes,
});

export interface ListenExtras {
  inboxPath: string | null;
  /** Lines for stderr once the listener is up (inbox, signing). */
  notes: string[];
  persist?: (n: Received) => Promise<void>;
  /** Stores a body that is not JSON in the quarantine file beside the inbox. */
  quarantine?: (q: {
    raw: Buffer;
    reason: string;
    headers: Record<string, string | string[] | undefined>;
    at: Date;
    remote: string;
  }) => Promise<void>;
  /** Queues the notification for --forward-to (when given). */
  forward?: (n: Received) => void;
  stop(graceMs: number): Promise<void>;
}

const label = (invitationId: string | null, status: string | null, id = '') =>
  invitationId === null
    ? `notification ${id} (not understood)`
    : `invitation ${safeText(invitationId)}${status ? ` (${safeText(status)})` : ''}`;

/** Checks the combination of flags before anything starts (exit 2). */
export function checkListenExtras(input: ListenExtraInput): void {
  if (input.sign && !input.forwardTo)
    throw new UsageError(
      '--sign: signs what --forward-to sends; give --forward-to too',
      'e.g. assess callbacks listen --forward-to http://localhost:3000/hook --sign',
    );
  if (input.secretFile && !input.sign && !input.printSecret)
    throw new UsageError('--secret-file: only used with --sign or --print-secret');
}

/** --print-secret: prints the secret on stdout (for a CI job's secret store). */
export async function printSecret(ctx: Context, input: ListenExtraInput): Promise<void> {
  const { resolveSecret } = await import('./signing.js');
  const s = await resolveSecret({
    secretFile: input.secretFile,
    env: ctx.env,
    configDir: configDir(ctx.env),
    profile: ctx.globals.profile,
    create: true,
  });
  ctx.secrets.revealed(s.secret, () => ctx.io.stdout.write(`${s.secret}\n`)); // what was asked for
  ctx.info(s.created ? `Generated a signing secret, kept in ${s.source} (0600).` : `Signing secret from ${s.source}.`);
}

/** `listenerId`: this run's id, carried by every forward (`assess-forwarded-by`), so that the listener refuses what comes back. */
export async function startListenExtras(
  ctx: Context,
  input: ListenExtraInput,
  listenerId: string,
): Promise<ListenExtras> {
  let inbox: InboxWriter | null = null;
  let quarantined: InboxWriter | null = null;
  const notes: string[] = [];
  // the inbox's module (node:crypto, the callback schemas) only once a listener starts
  const { defaultInboxPath, notificationId, InboxWriter, quarantinePath, bodyBytes } = await import('./inbox.js');
  const inboxPath =
    input.inbox === false
      ? null
      : typeof input.inbox === 'string'
        ? input.inbox
        : defaultInboxPath(configDir(ctx.env), ctx.globals.profile);
  if (inboxPath) {
    try {
      inbox = InboxWriter.open(inboxPath, { lock: true });
    } catch (err) {
      if (err instanceof UsageError) throw err;
      throw new UsageError(
        `--inbox: cannot open ${inboxPath} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
      );
    }
    const qPath = quarantinePath(inboxPath);
    try {
      quarantined = InboxWriter.open(qPath);
    } catch (err) {
      await inbox.close();
      throw new UsageError(
        `--inbox: cannot open the quarantine file ${qPath} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
      );
    }
    notes.push(
      `Inbox: ${inboxPath} (every notification is stored before it is acknowledged; bodies that are not JSON go to ${qPath})`,
    );
  }
  const closeFiles = async () => {
    await inbox?.close();
    await quarantined?.close();
  };

  let secret: string | undefined;
  let signedWith: string | undefined;
  if (input.forwardTo && input.sign) {
    const { resolveSecret } = await import('./signing.js');
    const s = await resolveSecret({
      secretFile: input.secretFile,
      env: ctx.env,
      configDir: configDir(ctx.env),
      profile: ctx.globals.profile,
      create: true,
      secrets: ctx.secrets,
    });
    secret = s.secret;
    signedWith = s.source === 'ASSESS_WEBHOOK_SECRET' ? s.source : resolve(s.source);
    notes.push(
      `Signing forwards (Standard Webhooks) with the secret from ${s.source}${s.created ? ' (generated now; assess callbacks listen --print-secret shows it)' : ''}.`,
    );
  }

  const stored = new WeakMap<Received, NotificationRecord>();
  const persist = inbox
    ? async (n: Received) => {
        const rec = await inbox!.appendNotification({
          raw: n.raw,
          read: n.read,
          headers: n.headers ?? {},
          at: n.at,
          forwardTo: input.forwardTo,
          signedWith,
        });
        stored.set(n, rec);
        if (rec.problem)
          ctx.warn(`stored a notification that cannot be understood (${rec.problem}); callbacks inbox lists it`);
        else if (rec.duplicate)
          ctx.info(`duplicate: ${label(rec.invitationId, rec.status)} was received before (marked in the inbox)`);
      }
    : undefined;
  const quarantine = quarantined
    ? async (q: {
        raw: Buffer;
        reason: string;
        headers: Record<string, string | string[] | undefined>;
        at: Date;
        remote: string;
      }) => {
        await quarantined!.appendQuarantined(q);
        ctx.warn(`stored a request from ${q.remote} in the quarantine file: ${q.reason}; callbacks inbox lists it`);
      }
    : undefined;

  // What an earlier listener acknowledged and never forwarded (kill -9): resumed below when it was
  // for this --forward-to, else recorded as a dead letter so that `callbacks inbox --failed` lists it.
  const unsettled = inbox ? unsettledForwards(inbox.records()) : [];
  const resumable = unsettled.filter((r) => r.forwardTo === input.forwardTo);
  const orphaned = unsettled.filter((r) => r.forwardTo !== input.forwardTo);
  for (const r of orphaned)
    await inbox!.append({
      type: 'dead-letter',
      at: ctx.now().toISOString(),
      id: r.id,
      invitationId: r.invitationId,
      status: r.status,
      target: r.forwardTo!,
      tries: 0,
      error: `acknowledged but never forwarded: the listener stopped first, and was restarted ${input.forwardTo ? `forwarding to ${input.forwardTo}` : 'without --forward-to'}`,
    });
  if (orphaned.length)
    notes.push(
      `${orphaned.length} notification(s) an earlier listener never forwarded (to another target) are now dead letters: callbacks inbox --failed lists them.`,
    );

  if (!input.forwardTo) return { inboxPath, notes, persist, quarantine, stop: closeFiles };

  const to = input.forwardTo;
  const settle = (item: Outgoing) => ({
    at: ctx.now().toISOString(),
    id: item.id,
    invitationId: item.invitationId,
    status: item.status,
    target: to,
  });
  const forwarder = new Forwarder({
    url: to,
    policy: policyFrom(input),
    secret,
    onOutcome: (item, o) => {
      if (o.ok)
        ctx.info(
          `forwarded ${label(item.invitationId, item.status, item.id)} to ${to}: HTTP ${o.status} (${o.ms} ms${o.tries > 1 ? `, try ${o.tries}` : ''})`,
        );
      else
        ctx.warn(
          `could not forward ${label(item.invitationId, item.status, item.id)} to ${to} (${o.tries} tries): ${o.error}${inbox ? '; kept as a dead letter (callbacks inbox --failed, callbacks replay)' : ''}`,
        );
    },
    onDeadLetter: async (item, o) =>
      void (await inbox?.append({ type: 'dead-letter', ...settle(item), tries: o.tries, error: o.error })),
    onDelivered: async (item) => void (await inbox?.append({ type: 'delivered', ...settle(item), via: 'forward' })),
  });
  for (const r of resumable)
    forwarder.enqueue({
      id: r.id,
      invitationId: r.invitationId,
      status: r.status,
      body: bodyBytes(r),
      contentType: r.headers['content-type'] ?? 'application/json',
      forwardedBy: forwardedByValue(undefined, listenerId),
    });
  if (resumable.length)
    notes.push(
      `Resuming ${resumable.length} notification(s) an earlier listener acknowledged and did not forward yet.`,
    );
  const forward = (n: Received) => {
    const rec = stored.get(n);
    const item: Outgoing = {
      id: rec?.id ?? notificationId(n.raw),
      invitationId: n.read.invitationId,
      status: n.read.status,
      body: n.raw,
      contentType: n.contentType,
      forwardedBy: forwardedByValue(n.headers?.[FORWARDED_BY], listenerId),
    };
    forwarder.enqueue(item);
  };
  return {
    inboxPath,
    notes,
    persist,
    quarantine,
    forward,
    stop: async (graceMs) => {
      await forwarder.stop(graceMs);
      await closeFiles();
    },
  };
}
