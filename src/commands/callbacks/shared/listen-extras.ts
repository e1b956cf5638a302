// What `callbacks listen` adds for "never miss a completion": the durable inbox (written before
// the 200), forwarding with a delivery policy (retries, bounded queue, dead letters) and
// Standard Webhooks signing. Kept out of listen.ts so that file stays about receiving.
import type { Command } from 'commander';
import * as z from 'zod';
import { zx } from '../../../cli/command.js';
import { configDir } from '../../../config/store.js';
import type { Context } from '../../../context.js';
import { UsageError } from '../../../errors.js';
import { durationArg, fmt } from '../../../util/duration.js';
import type { Received } from './receiver.js';
import { parseSize } from './queue.js';
import { POLICY_DEFAULTS, type DeliveryPolicy, type Outgoing } from './delivery-policy.js';
import { safeText } from './statuses.js';
import { defaultInboxPath, notificationId, type InboxWriter, type NotificationRecord } from './inbox.js';

export const addListenExtraOptions = (cmd: Command) =>
  cmd
    .option('--inbox <file>', 'durable inbox: each notification is appended (NDJSON) before the 200 (default: <config dir>/inbox/<profile>.ndjson)')
    .option('--no-inbox', 'keep no inbox (notifications are then only printed, forwarded or run)')
    .option('--sign', 'sign what --forward-to sends (Standard Webhooks webhook-id/-timestamp/-signature headers)')
    .option('--secret-file <file>', 'the signing secret (default: ASSESS_WEBHOOK_SECRET, else one generated and kept per profile)')
    .option('--print-secret', 'print the signing secret (generating it if needed) and exit')
    .option('--forward-retries <n>', 'retries of a failed forward (5xx, 408, 429, timeout, connection error)', String(POLICY_DEFAULTS.retries))
    .option('--forward-timeout <duration>', 'per forward try', fmt(POLICY_DEFAULTS.timeoutMs))
    .option('--forward-backoff <duration>', 'wait before the first retry; doubled per retry, at most 30s', fmt(POLICY_DEFAULTS.backoffMs))
    .option('--forward-queue <n>', 'notifications waiting to be forwarded at most; more become dead letters', String(POLICY_DEFAULTS.queueSize))
    .option('--forward-queue-bytes <size>', 'bytes of notifications waiting to be forwarded at most (default 64MB; e.g. 512KB)');

// Built when a command validates (not when any `callbacks` command loads): a usage error of
// `callbacks process` need not build listen's and replay's flag schemas.
export const policyShape = {
  forwardRetries: zx.int(0, 20, 5),
  forwardTimeout: durationArg('10s', 100, 600_000),
  forwardBackoff: durationArg('500ms', 0, 30_000),
  forwardQueue: zx.int(1, 1_000_000, 1000),
  forwardQueueBytes: z
    .string()
    .optional()
    .transform((v, c) => {
      if (v === undefined) return POLICY_DEFAULTS.queueBytes;
      const n = parseSize(v);
      if (n === undefined || n < 1024) {
        c.addIssue({ code: 'custom', message: 'must be a size of at least 1KB, e.g. 64MB or 512KB' });
        return z.NEVER;
      }
      return n;
    }),
};

export const listenExtraShape = {
  inbox: z.union([z.string().min(1, 'must name a file, e.g. ./inbox.ndjson'), z.boolean()]).optional(),
  sign: z.boolean().optional(),
  secretFile: z.string().min(1, 'must name a file, e.g. ./webhook.secret').optional(),
  printSecret: z.boolean().optional(),
  ...policyShape,
};

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
  /** Queues the notification for --forward-to (when given). */
  forward?: (n: Received) => void;
  stop(graceMs: number): Promise<void>;
}

const label = (invitationId: string, status: string | null) => `invitation ${safeText(invitationId)}${status ? ` (${safeText(status)})` : ''}`;

/** Checks the combination of flags before anything starts (exit 2). */
export function checkListenExtras(input: ListenExtraInput): void {
  if (input.sign && !input.forwardTo)
    throw new UsageError(
      '--sign: signs what --forward-to sends; give --forward-to too',
      'e.g. assess callbacks listen --forward-to http://localhost:3000/hook --sign',
    );
  if (input.secretFile && !input.sign && !input.printSecret) throw new UsageError('--secret-file: only used with --sign or --print-secret');
}

/** --print-secret: prints the secret on stdout (for a CI job's secret store). */
export async function printSecret(ctx: Context, input: ListenExtraInput): Promise<void> {
  const { resolveSecret } = await import('./signing.js');
  const s = await resolveSecret({ secretFile: input.secretFile, env: ctx.env, configDir: configDir(ctx.env), profile: ctx.globals.profile, create: true });
  ctx.io.stdout.write(`${s.secret}\n`);
  ctx.info(s.created ? `Generated a signing secret, kept in ${s.source} (0600).` : `Signing secret from ${s.source}.`);
}

export async function startListenExtras(ctx: Context, input: ListenExtraInput): Promise<ListenExtras> {
  let inbox: InboxWriter | null = null;
  const notes: string[] = [];
  const inboxPath = input.inbox === false ? null : typeof input.inbox === 'string' ? input.inbox : defaultInboxPath(configDir(ctx.env), ctx.globals.profile);
  if (inboxPath) {
    const { InboxWriter } = await import('./inbox.js');
    try {
      inbox = InboxWriter.open(inboxPath);
    } catch (err) {
      throw new UsageError(`--inbox: cannot open ${inboxPath} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    }
    notes.push(`Inbox: ${inboxPath} (every notification is stored before it is acknowledged)`);
  }
  const stored = new WeakMap<Received, NotificationRecord>();
  const persist = inbox
    ? async (n: Received) => {
        const rec = await inbox!.appendNotification({
          raw: n.raw,
          body: n.body as Record<string, unknown>,
          headers: n.headers ?? {},
          at: n.at,
          forwardTo: input.forwardTo,
        });
        stored.set(n, rec);
        if (rec.duplicate) ctx.info(`duplicate: ${label(rec.invitationId, rec.status)} was received before (marked in the inbox)`);
      }
    : undefined;

  if (!input.forwardTo) return { inboxPath, notes, persist, stop: async () => void (await inbox?.close()) };

  let secret: string | undefined;
  if (input.sign) {
    const { resolveSecret } = await import('./signing.js');
    const s = await resolveSecret({ secretFile: input.secretFile, env: ctx.env, configDir: configDir(ctx.env), profile: ctx.globals.profile, create: true });
    secret = s.secret;
    notes.push(
      `Signing forwards (Standard Webhooks) with the secret from ${s.source}${s.created ? ' (generated now; assess callbacks listen --print-secret shows it)' : ''}.`,
    );
  }
  const { Forwarder } = await import('./delivery-policy.js');
  const to = input.forwardTo;
  const forwarder = new Forwarder({
    url: to,
    policy: policyFrom(input),
    secret,
    onOutcome: (item, o) => {
      if (o.ok) ctx.info(`forwarded ${label(item.invitationId, item.status)} to ${to}: HTTP ${o.status} (${o.ms} ms${o.tries > 1 ? `, try ${o.tries}` : ''})`);
      else
        ctx.warn(
          `could not forward ${label(item.invitationId, item.status)} to ${to} (${o.tries} tries): ${o.error}${inbox ? '; kept as a dead letter (callbacks inbox --failed, callbacks replay)' : ''}`,
        );
    },
    onDeadLetter: async (item, o) => {
      await inbox?.append({
        type: 'dead-letter',
        at: new Date().toISOString(),
        id: item.id,
        invitationId: item.invitationId,
        status: item.status,
        target: to,
        tries: o.tries,
        error: o.error,
      });
    },
  });
  const forward = (n: Received) => {
    const rec = stored.get(n);
    const body = n.body as Record<string, unknown>;
    const item: Outgoing = {
      id: rec?.id ?? notificationId(n.raw),
      invitationId: String(body.TestInvitationId),
      status: typeof body.Status === 'string' ? body.Status : null,
      body: n.raw,
      contentType: n.contentType,
    };
    forwarder.enqueue(item);
  };
  return {
    inboxPath,
    notes,
    persist,
    forward,
    stop: async (graceMs) => {
      await forwarder.stop(graceMs);
      await inbox?.close();
    },
  };
}
