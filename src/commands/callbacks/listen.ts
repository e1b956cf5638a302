// `assess callbacks listen`: a local receiver for completion notifications (like `stripe listen`
// for webhooks). Stores each notification in the profile's store (store first, judge after: read
// tolerantly, what cannot be understood is kept and listed), answers 200 once it is committed,
// prints it, and optionally forwards the body unchanged (--forward-to, with retries and signing;
// the forward queue is in the store, so a restarted listener resumes it: shared/) and/or runs a
// command with it (--exec).
// stdout: with --print-url the first line is the callback URL to register; then one line per
// notification (a table row on a TTY; the body as one JSON object per line when piped or with
// --ndjson/--json; CSV with --csv). Everything else goes to stderr.
import * as z from 'zod/mini';
import { defineCommand, flag, zx } from '../../cli/command.js';
import { CALLBACK_V3_FIELDS } from '../../api/wire-constants.js';
import type { Context } from '../../context.js';
import { LocalError, UsageError } from '../../errors.js';
import type { Received } from './shared/receiver.js';
import { WorkQueue } from './shared/queue.js';
import { reachesItself } from './shared/self-forward.js';
import { runExec } from './shared/exec.js';
import {
  checkListenExtras,
  LISTEN_EXTRA_FLAGS,
  printSecret,
  queueBytesArg,
  startListenExtras,
} from './shared/listen-extras.js';
import { pickFields } from '../../output/fields.js';
import {
  checkExposure,
  jsonLogContext,
  LISTEN_SERVICE_FLAGS,
  ListenMetrics,
  readTls,
  reloadOnHangup,
} from './shared/listen-service.js';
import { escapeJson } from '../../output/escape.js';
import { displayZone } from '../../output/local-time.js';
import { readSmallFile, warnIfReadableByOthers } from '../../util/small-file.js';

/** On Ctrl-C a running forward or --exec gets this long, then is aborted: the listener stops within 2 s. */
const GRACE_ON_STOP_MS = 1_500;
const DEFAULT_EXEC_QUEUE = 1000;
const DEFAULT_QUEUE_BYTES = 64 * 1024 * 1024;

export default defineCommand({
  name: 'listen',
  description:
    'Receive completion notifications locally into the store (each committed before its 200): print each one, optionally forward it (retried, signed) or run a command with it',
  examples: [
    'assess callbacks listen --port 8787',
    'assess callbacks listen --port 0 --token-file listen.token --print-url   # the first stdout line is the URL to register',
    'assess callbacks listen --forward-to http://localhost:3000/webhooks/assess',
    "assess callbacks listen --ndjson --exec 'jq -r .Status >> statuses.txt'",
    'assess callbacks listen --forward-to http://localhost:3000/webhooks/assess --sign --secret-file webhook.secret',
  ],
  flags: {
    ...LISTEN_EXTRA_FLAGS,
    ...LISTEN_SERVICE_FLAGS,
    port: flag('port to listen on (0 = any free port)', { value: 'n', default: '8787' }, () => zx.int(0, 65535, 8787)),
    host: flag('address to bind', { value: 'addr', default: '127.0.0.1' }, () => zx.host()),
    path: flag('the path notifications are POSTed to', { value: 'path', default: '/hook' }, () =>
      z.string().check(z.regex(/^\/[A-Za-z0-9._~\-/]*$/, 'must be a URL path starting with /, e.g. /hook')),
    ),
    forwardTo: flag(
      'also POST each stored notification, body unchanged, to this URL (what a killed listener did not forward is resumed on restart)',
      { value: 'url' },
      () => z.optional(zx.url()),
    ),
    exec: flag(
      'run this shell command per notification: JSON on stdin, fields in ASSESS_EVENT_* variables (ASSESS_API_KEY and the secrets removed from its environment)',
      { value: 'command' },
      () => z.optional(z.string().check(z.trim(), z.minLength(1, 'must be a command, e.g. "cat >> events.ndjson"'))),
    ),
    tokenFile: flag(
      'only accept requests whose URL carries ?token=<the token in this file> (others get 401); also ASSESS_LISTEN_TOKEN',
      { value: 'file' },
      () => z.optional(z.string().check(z.minLength(1, 'must name a file, e.g. ./listen.token'))),
    ),
    token: flag(
      'as --token-file, the token given on the command line (visible to other users in ps: prefer --token-file)',
      { value: 'token' },
      () => z.optional(tokenSchema()),
    ),
    printUrl: flag('print the callback URL to register as the first line of stdout, then keep listening', () =>
      z.optional(z.boolean()),
    ),
    execQueue: flag(
      `notifications waiting for --exec at most (default ${DEFAULT_EXEC_QUEUE}); more are dropped with a warning`,
      { value: 'n' },
      () => z._default(zx.int(1, 1_000_000, DEFAULT_EXEC_QUEUE), DEFAULT_EXEC_QUEUE),
    ),
    execQueueBytes: flag(
      'bytes of notifications waiting for --exec at most (default 64MB; e.g. 512KB, 1GB)',
      { value: 'size' },
      () => queueBytesArg(DEFAULT_QUEUE_BYTES),
    ),
  },
  // The notification's own field names (v3's are a superset of v2's): --json a,b picks from them.
  jsonFields: CALLBACK_V3_FIELDS,
  async run(ctx, input) {
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
    // one --exec at a time, in arrival order (In Progress before Complete), in a bounded queue
    // (count and bytes: a command that hangs must not grow the listener without end); forwards
    // likewise (shared/delivery-policy.ts)
    const execs = input.exec
      ? new WorkQueue<Received>(
          '--exec',
          { maxItems: input.execQueue, maxBytes: input.execQueueBytes },
          (n, signal) => runExec(ctx, input.exec!, n, signal, label(n)),
          (m) => ctx.warn(m),
        )
      : null;
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
    let receiver;
    try {
      receiver = await startReceiver({
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
      });
    } catch (err) {
      await more.stop(0);
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE')
        throw new LocalError(`port ${input.port} is in use`, 'pick another with --port, or --port 0 for any free port');
      if (code === 'EADDRNOTAVAIL') throw new LocalError(`cannot listen on ${input.host}: no such local address`);
      throw err;
    }
    // as written or as resolved (a host name, another local address of a 0.0.0.0 bind)
    if (
      input.forwardTo &&
      (await reachesItself(input.forwardTo, { address: receiver.address, port: receiver.port, path: input.path }))
    ) {
      await receiver.close();
      await more.stop(0);
      throw new UsageError(
        `--forward-to: ${input.forwardTo} is this listener itself (port ${receiver.port}, path ${input.path}); each notification would be forwarded to itself without end`,
        'forward to the application that handles the notifications, e.g. --forward-to http://localhost:3000/webhooks/assess',
      );
    }
    // asked for: the token shown in it once, and masked in all that follows
    ctx.secrets.add(token);
    more.listening(receiver.callbackUrl);
    const unhook = tls ? reloadOnHangup(ctx, input, (pair) => receiver.server.setSecureContext?.(pair)) : undefined;
    if (input.printUrl)
      ctx.secrets.revealed(token, () =>
        ctx.io.stdout.write(`${receiver.callbackUrl}
`),
      );
    ctx.info(`Listening for notifications on ${receiver.callbackUrl}`);
    for (const note of more.notes) ctx.info(note);
    ctx.info(
      `Register it as the invitation's callback URL, e.g. assess invite <testId> … --callback-url '${receiver.callbackUrl}'. Ctrl-C stops.`,
    );

    await new Promise<void>((done) => {
      if (ctx.signal.aborted) return done();
      ctx.signal.addEventListener('abort', () => done(), { once: true });
    });
    unhook?.();
    await receiver.close();
    // What runs gets a short grace, then is aborted; what waits is not run but reported (forwards
    // left become dead letters, replayable). A second Ctrl-C exits at once (src/cli/program.ts).
    const [left] = await Promise.all([execs?.stop(GRACE_ON_STOP_MS), more.stop(GRACE_ON_STOP_MS)]);
    ctx.info(`Stopped; ${received} notification(s) received.`);
    const shown = (labels: string[]) =>
      labels.slice(0, 10).join(', ') + (labels.length > 10 ? `, … (${labels.length - 10} more)` : '');
    if (left?.notDone.length) ctx.warn(`${left.notDone.length} notification(s) --exec not run: ${shown(left.notDone)}`);
    if (left?.failed.length)
      ctx.warn(`${left.failed.length} notification(s) --exec not run: it could not start for ${shown(left.failed)}`);
    if (left?.dropped) ctx.warn(`${left.dropped} notification(s) --exec not run: dropped while the queue was full`);
  },
});

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
      return (n) =>
        write(
          `${json(n.read.ok ? JSON.stringify(pickFields(n.body, ctx.globals.fields)) : JSON.stringify(JSON.parse(n.raw.toString('utf8'))))}\n`,
        );
    }
  }
}

const tokenSchema = () =>
  z
    .string()
    .check(
      z.regex(/^[A-Za-z0-9._~-]{1,200}$/, 'must be 1-200 URL-safe characters (letters, digits, . _ ~ -), e.g. s3cret'),
    );

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
      '--token: a token on the command line is visible to other users (ps) and kept in shell history; use --token-file F or ASSESS_LISTEN_TOKEN',
    );
    return input.token;
  }
  let value: string | undefined;
  let from: string;
  if (input.tokenFile !== undefined) {
    const file = await readSmallFile(input.tokenFile, {
      label: '--token-file',
      maxBytes: 4096,
      instead: 'give a file holding only the token, e.g. printf %s s3cret > listen.token',
      missing: `make one first (a secret of URL-safe characters): (umask 077; openssl rand -hex 24 > ${input.tokenFile})`,
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
