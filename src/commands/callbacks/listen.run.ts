// `callbacks listen`: stores each notification in the profile's store (store first, judge after:
// read tolerantly, what cannot be understood is kept and listed), answers 200 once it is committed,
// prints it, and optionally forwards the body unchanged (--forward-to, with retries and signing; the
// forward queue is in the store, so a restarted listener resumes it: shared/) and/or runs a command
// with it (--exec).
// stdout: with --print-url the first line is the callback URL to register; then one line per
// notification (a table row on a TTY; the body as one JSON object per line when piped or with
// --ndjson/--json; CSV with --csv). Everything else goes to stderr.
import type { InputOfCommand, Run } from '../../cli/command.js';
import type { Context } from '../../context.js';
import { LocalError, UsageError } from '../../errors.js';
import { escapeJson } from '../../output/escape.js';
import { pickFields } from '../../output/fields.js';
import { displayZone } from '../../output/local-time.js';
import { plural } from '../../util/plural.js';
import { readSmallFile, warnIfReadableByOthers } from '../../util/small-file.js';
import type decl from './listen.js';
import { tokenSchema } from './listen.js';
import { runExec } from './shared/exec.js';
import { checkListenExtras, printSecret, startListenExtras, type ListenExtras } from './shared/listen-extras.js';
import { checkExposure, jsonLogContext, ListenMetrics, readTls, reloadOnHangup } from './shared/listen-service.js';
import { WorkQueue, type QueueReport } from './shared/queue.js';
import type { Received, ReceiverOptions, RunningReceiver } from './shared/receiver.js';
import { reachesItself } from './shared/self-forward.js';

type Input = InputOfCommand<typeof decl>;

/** On Ctrl-C a running forward or --exec gets this long, then is aborted: the listener stops within 2 s. */
const GRACE_ON_STOP_MS = 1_500;

export const run: Run<typeof decl> = async (ctx, input) => {
  checkListenExtras(input);
  if (input.printSecret) return printSecret(ctx, input);
  checkExposure(input, ctx.globals.insecureHttp);
  ctx = jsonLogContext(ctx, input.logFormat);
  const tls = await readTls(ctx, input);
  const metrics = new ListenMetrics();
  const token = await listenToken(ctx, input);
  const { startReceiver, newListenerId } = await import('./shared/receiver.js');
  const listenerId = newListenerId(); // its forwards carry it: what comes back is refused (508)
  const out = await makePrinter(ctx);
  const execs = execQueue(ctx, input);
  let received = 0;
  const more = await startListenExtras(ctx, input, listenerId);

  const onNotification = (n: Received) => {
    received++;
    if (!more.persist) metrics.received++;
    if (more.duplicate?.(n)) metrics.duplicates++;
    out(n);
    more.forward?.(n); // --forward-to: retries, bounded queue, dead letters (shared/delivery-policy.ts)
    execs?.push(n, n.raw.length, label(n));
  };
  const receiver = await bind(input, more, () =>
    startReceiver({
      host: input.host,
      port: input.port,
      path: input.path,
      token,
      listenerId,
      onNotification,
      persist: metrics.timed(more.persist),
      quarantine: metrics.timed(more.quarantine),
      onRejected: (r) => {
        metrics.refuse(r.status);
        ctx.warn(`refused ${r.method} ${r.path} from ${r.remote}: ${r.status} ${r.reason}`);
      },
      probes: metrics.probes(more.storePath, more.lanes),
      tls,
    }),
  );
  await refuseSelfForward(input, receiver, more);
  const unhook = announce(ctx, input, receiver, token, more, tls);
  await untilAborted(ctx.signal);
  unhook?.();
  await receiver.close();
  // What runs gets a short grace, then is aborted; what waits is not run but reported (forwards
  // left become dead letters, replayable). A second Ctrl-C exits at once (src/cli/program.ts).
  const [left] = await Promise.all([execs?.stop(GRACE_ON_STOP_MS), more.stop(GRACE_ON_STOP_MS)]);
  ctx.info(`Stopped; ${plural(received, 'notification')} received.`);
  if (left) reportExecsLeft(ctx, left);
};

/**
 * One --exec at a time, in arrival order (In Progress before Complete), in a bounded queue (count
 * and bytes: a command that hangs must not grow the listener without end); forwards likewise
 * (shared/delivery-policy.ts). Null without --exec.
 */
function execQueue(ctx: Context, input: Input): WorkQueue<Received> | null {
  return input.exec
    ? new WorkQueue<Received>(
        '--exec',
        { maxItems: input.execQueue, maxBytes: input.execQueueBytes },
        (n, signal) => runExec(ctx, input.exec!, n, signal, label(n)),
        (m) => ctx.warn(m),
      )
    : null;
}

/** Starts the receiver; a port in use or an address that is not local is a local error, the extras stopped. */
async function bind(input: Input, more: ListenExtras, start: () => Promise<RunningReceiver>): Promise<RunningReceiver> {
  try {
    return await start();
  } catch (err) {
    await more.stop(0);
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE')
      throw new LocalError(`port ${input.port} is in use`, 'pick another with --port, or --port 0 for any free port');
    if (code === 'EADDRNOTAVAIL') throw new LocalError(`cannot listen on ${input.host}: no such local address`);
    throw err;
  }
}

/**
 * Exit 2 when --forward-to is this listener, as written or as resolved (a host name, another local
 * address of a 0.0.0.0 bind).
 */
async function refuseSelfForward(input: Input, receiver: RunningReceiver, more: ListenExtras): Promise<void> {
  if (
    input.forwardTo &&
    (await reachesItself(input.forwardTo, { address: receiver.address, port: receiver.port, path: input.path }))
  ) {
    await receiver.close();
    await more.stop(0);
    throw new UsageError(
      `--forward-to: ${input.forwardTo} is this listener itself (port ${receiver.port}, path ${input.path}); each ` +
        `notification would be forwarded to itself without end`,
      'forward to the application that handles the notifications, e.g. --forward-to ' +
        'http://localhost:3000/webhooks/assess',
    );
  }
}

/** Says where it listens (the URL on stdout with --print-url); returns what unhooks the TLS reload. */
function announce(
  ctx: Context,
  input: Input,
  receiver: RunningReceiver,
  token: string | undefined,
  more: ListenExtras,
  tls: ReceiverOptions['tls'],
): (() => void) | undefined {
  // asked for: the token shown in it once, and masked in all that follows
  ctx.secrets.add(token);
  more.listening(receiver.callbackUrl);
  const unhook = tls ? reloadOnHangup(ctx, input, (pair) => receiver.server.setSecureContext?.(pair)) : undefined;
  if (input.printUrl) ctx.secrets.revealed(token, () => ctx.io.stdout.write(`${receiver.callbackUrl}\n`));
  ctx.info(`Listening for notifications on ${receiver.callbackUrl}`);
  for (const note of more.notes) ctx.info(note);
  ctx.info(
    `Register it as the invitation's callback URL, e.g. assess invite <testId> … --callback-url ` +
      `'${receiver.callbackUrl}'. Ctrl-C stops.`,
  );
  return unhook;
}

function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise<void>((done) => {
    if (signal.aborted) return done();
    signal.addEventListener('abort', () => done(), { once: true });
  });
}

/** Warns about the notifications --exec did not run: left waiting, not started, or dropped. */
function reportExecsLeft(ctx: Context, left: QueueReport): void {
  const shown = (labels: string[]) =>
    labels.slice(0, 10).join(', ') + (labels.length > 10 ? `, … (${labels.length - 10} more)` : '');
  if (left.notDone.length)
    ctx.warn(`${plural(left.notDone.length, 'notification')} --exec not run: ${shown(left.notDone)}`);
  if (left.failed.length)
    ctx.warn(
      `${plural(left.failed.length, 'notification')} --exec not run: it could not start for ${shown(left.failed)}`,
    );
  if (left.dropped)
    ctx.warn(`${plural(left.dropped, 'notification')} --exec not run: dropped while the queue was full`);
}

/** Returns the function that prints one notification in the chosen output format. */
async function makePrinter(ctx: Context): Promise<(n: Received) => void> {
  const { tableHeader, tableRow, csvHeader, csvRow } = await import('./shared/notification.js');
  const write = (s: string) => ctx.io.stdout.write(s);
  switch (ctx.globals.output) {
    case 'table': {
      const c = ctx.io.style;
      const zone = displayZone(ctx.env);
      let first = true;
      return (n) => {
        if (first) write(`${tableHeader(c)}\n`);
        first = false;
        write(`${tableRow(n.body, n.at, c, zone)}\n`);
      };
    }
    case 'csv': {
      let first = true;
      return (n) => {
        if (first) write(csvHeader());
        first = false;
        write(csvRow(n.body, ctx.globals.csvSafe, ctx.io.stdoutIsTTY));
      };
    }
    default: {
      // tsv (piped), --ndjson and --json: one JSON object per line, as it streams
      // what cannot be understood is shown as it came (a list, a string…), on one line
      // on a terminal, what JSON.stringify leaves raw (C1, bidi) is escaped
      const json = (text: string) => (ctx.io.stdoutIsTTY ? escapeJson(text) : text);
      const shown = (n: Received) =>
        n.read.ok ? pickFields(n.body, ctx.globals.fields) : JSON.parse(n.raw.toString('utf8'));
      return (n) => write(`${json(JSON.stringify(shown(n)))}\n`);
    }
  }
}

/**
 * The token requests must carry: --token-file, ASSESS_LISTEN_TOKEN, or --token. A secret on the
 * command line is visible to every user in `ps` and kept in shell history (clig.dev: never read
 * secrets from flags): --token still works, for scripts that use it, with a warning.
 */
async function listenToken(ctx: Context, input: { token?: string; tokenFile?: string }): Promise<string | undefined> {
  if (input.token !== undefined && input.tokenFile !== undefined)
    throw new UsageError('--token and --token-file cannot be used together; keep --token-file');
  if (input.token !== undefined) {
    ctx.warn(
      '--token: a token on the command line is visible to other users (ps) and kept in shell history; use ' +
        '--token-file F or ASSESS_LISTEN_TOKEN',
    );
    return input.token;
  }
  let value: string | undefined;
  let from: string;
  if (input.tokenFile !== undefined) {
    const make = `(umask 077; openssl rand -hex 24 > ${input.tokenFile})`;
    const file = await readSmallFile(input.tokenFile, {
      label: '--token-file',
      maxBytes: 4096,
      instead: 'give a file holding only the token, e.g. printf %s s3cret > listen.token',
      missing: `make one first (a secret of URL-safe characters): ${make}`,
      fifo: { signal: ctx.signal },
    });
    warnIfReadableByOthers(input.tokenFile, file.mode, "the listener's token", ctx.warn);
    value = file.text.trim();
    from = '--token-file';
  } else {
    value = ctx.env.ASSESS_LISTEN_TOKEN?.trim() || undefined;
    from = 'ASSESS_LISTEN_TOKEN';
  }
  if (value === undefined) return undefined;
  const ok = tokenSchema().safeParse(value);
  if (!ok.success) throw new UsageError(`${from}: the token ${ok.error.issues[0]?.message}`);
  return value;
}

const label = (n: Received) =>
  n.read.invitationId === null
    ? `a notification that cannot be understood (${n.read.problem})`
    : `invitation ${n.read.invitationId}${n.read.status ? ` (${n.read.status})` : ''}`;
