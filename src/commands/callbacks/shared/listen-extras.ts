// What `callbacks listen` adds for "never miss a completion": the durable inbox (written before
// the 200), forwarding with a delivery policy (retries, bounded queue, dead letters) and
// Standard Webhooks signing. Kept out of listen.run.ts so that file stays about receiving.
import * as z from 'zod/mini';
import { flag, zx } from '../../../cli/command.js';
import { configDir } from '../../../config/store.js';
import type { Context } from '../../../context.js';
import { UsageError } from '../../../errors.js';
import { durationArg, fmt } from '../../../util/duration.js';
import type { Received } from './receiver.js';
import { parseSize } from './queue.js';
import { readAs } from '../../../util/read-as.js';
import type { Quarantine } from './listen-store.js';
import { STORE_FLAG } from './open-store.js';
import { POLICY_DEFAULTS } from './delivery-policy.js';
import { BREAKER_DEFAULTS } from './forward-lanes.js';
import { resolve } from 'node:path';
import { plural } from '../../../util/plural.js';

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
  ...STORE_FLAG,
  /** commander's `--no-inbox` makes this false. */
  inbox: flag(
    'keep no inbox: notifications are then only printed, forwarded or run (nothing is kept for a restart)',
    { long: 'no-inbox' },
    () => z._default(z.boolean(), true),
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
  forwardConcurrency: flag(
    "invitations forwarded at once (each invitation's notifications one at a time, in arrival order)",
    { value: 'n', default: '16' },
    () => zx.int(1, 256, 16),
  ),
  breakerFailures: flag(
    'failures in a row (5xx, timeouts, connection errors) after which forwarding pauses, probing the target',
    { value: 'n', default: String(BREAKER_DEFAULTS.failures) },
    () => zx.int(1, 1000, BREAKER_DEFAULTS.failures),
  ),
  breakerProbe: flag(
    'while paused, one probe this often; its success resumes forwarding',
    { value: 'duration', default: fmt(BREAKER_DEFAULTS.probeMs) },
    () => durationArg('30s', 100, 3_600_000),
  ),
  forwardQueue: flag(
    'with --no-inbox: notifications waiting to be forwarded in memory at most; more are dropped',
    { value: 'n', default: String(POLICY_DEFAULTS.queueSize) },
    () => zx.int(1, 1_000_000, 1000),
  ),
  forwardQueueBytes: flag(
    'with --no-inbox: bytes of notifications waiting in memory at most (default 64MB; e.g. 512KB)',
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
  store?: string;
  inbox: boolean;
  sign?: boolean;
  secretFile?: string;
  printSecret?: boolean;
  forwardTo?: string;
  forwardRetries: number;
  forwardTimeout: number;
  forwardBackoff: number;
  forwardQueue: number;
  forwardQueueBytes: number;
  forwardConcurrency: number;
  breakerFailures: number;
  breakerProbe: number;
}

export interface ListenExtras {
  /** Lines for stderr once the listener is up (inbox, signing). */
  notes: string[];
  persist?: (n: Received) => Promise<void>;
  /** Stores a body that is not JSON (kept with the reason, listed by `callbacks inbox`). */
  quarantine?: Quarantine;
  /** Queues the notification for --forward-to (when given). */
  forward?: (n: Received) => void;
  /** Says where the listener listens (a second listener on the store names it). */
  listening(url: string): void;
  /** The store's file (null with --no-inbox), for /readyz. */
  storePath: string | null;
  /** Whether the stored record of a notification marks it a duplicate. */
  duplicate?(n: Received): boolean;
  /** The forward queue's lanes (--forward-to), for /metrics and /readyz. */
  lanes?: import('./forward-lanes.js').ForwardLanes;
  stop(graceMs: number): Promise<void>;
}

/** Checks the combination of flags before anything starts (exit 2). */
export function checkListenExtras(input: ListenExtraInput): void {
  if (input.sign && !input.forwardTo)
    throw new UsageError(
      '--sign: signs what --forward-to sends; give --forward-to too',
      'e.g. assess callbacks listen --forward-to http://localhost:3000/hook --sign',
    );
  if (input.secretFile && !input.sign && !input.printSecret)
    throw new UsageError('--secret-file: only used with --sign or --print-secret');
  if (input.store !== undefined && !input.inbox)
    throw new UsageError('--store: not used with --no-inbox (nothing is stored); keep one of them');
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

async function signingSecret(ctx: Context, input: ListenExtraInput, notes: string[]) {
  if (!input.forwardTo || !input.sign) return { secret: undefined, signedWith: undefined };
  const { resolveSecret } = await import('./signing.js');
  const s = await resolveSecret({
    secretFile: input.secretFile,
    env: ctx.env,
    configDir: configDir(ctx.env),
    profile: ctx.globals.profile,
    create: true,
    secrets: ctx.secrets,
  });
  notes.push(
    `Signing forwards (Standard Webhooks) with the secret from ` +
      `${s.source}${s.created ? ' (generated now; assess callbacks listen --print-secret shows it)' : ''}.`,
  );
  return { secret: s.secret, signedWith: s.source === 'ASSESS_WEBHOOK_SECRET' ? s.source : resolve(s.source) };
}

/**
 * `listenerId`: this run's id, carried by every forward (`assess-forwarded-by`), so that the listener refuses what
 * comes back.
 */
export async function startListenExtras(
  ctx: Context,
  input: ListenExtraInput,
  listenerId: string,
): Promise<ListenExtras> {
  const notes: string[] = [];
  const { secret, signedWith } = await signingSecret(ctx, input, notes);
  // the store's modules (node:sqlite, node:crypto) only once a listener starts
  const { openListenStore, label } = await import('./listen-store.js');
  const kept = input.inbox ? await openListenStore(ctx, input, signedWith) : null;
  if (kept) notes.unshift(...kept.notes);
  const listening = (url: string) => kept?.lock.describe(url);
  const common = {
    notes,
    persist: kept?.persist,
    quarantine: kept?.quarantine,
    listening,
    storePath: kept?.inbox.path ?? null,
    duplicate: (n: Received) => kept?.recordOf(n)?.duplicate === true,
  };
  if (!input.forwardTo) return { ...common, stop: async () => kept?.close() };

  const { startForwarding } = await import('./listen-forward.js');
  const fwd = startForwarding(ctx, input, { kept, secret, listenerId });
  notes.push(fwd.note);
  const forward = fwd.forward;
  return {
    ...common,
    forward,
    lanes: fwd.lanes,
    stop: async (graceMs) => {
      const left = await fwd.lanes.stop(graceMs);
      if (!kept)
        for (const e of fwd.lanes.queued())
          ctx.warn(
            `could not forward ` +
              `${e.item ? label(e.item.invitationId, e.item.status) : 'a notification'} to ${input.forwardTo}: the ` +
              `listener stopped first (--no-inbox: kept nowhere)`,
          );
      if (kept && left)
        ctx.info(
          `${plural(left, 'notification')} not forwarded yet ` +
            `${left === 1 ? 'stays' : 'stay'} queued in ${kept.inbox.path}: a restarted listener forwards them.`,
        );
      kept?.close();
    },
  };
}
