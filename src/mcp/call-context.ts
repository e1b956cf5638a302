// The context a tool call's command runs with: the server's, with stdout a buffer, --json output
// and no prompts, and a connection that carries the call's guard and signal.
import { Readable, Writable } from 'node:stream';
import { maskUrlCredentials } from '../api/redact.js';
import type { SendGuard } from '../api/transport.js';
import type { ClientHooks } from '../api/client-transport.js';
import type { Connection } from '../config/credentials.js';
import { debugSink, type Context } from '../context.js';
import { escapeMessage } from '../output/escape.js';
import { PLAIN } from '../output/style.js';
import type { DerivedTool } from './tool-from-command.js';

export interface CallIO {
  write(s: string): void;
  notes: string[];
  guard: SendGuard;
  /** Aborted when the client cancels the call (notifications/cancelled). */
  signal: AbortSignal;
  /** A file's content given inline, read as standard input (`-`). */
  stdin?: Readable;
}

/**
 * The server's context with stdout a buffer, --json output, no prompts; writes confirmed by
 * --allow-writes. Its connection is the server's with the call's guard and signal, and its clients
 * are made from that connection: whatever client a command gets, each request passes the guard.
 */
export function callContext(base: Context, tool: DerivedTool, call: CallIO): Context {
  const stdout = new Writable({
    write(chunk: Buffer | string, _enc, cb) {
      call.write(chunk.toString());
      cb();
    },
  });
  // every notice goes into the tool's result; on stderr a notice only without -q (warnings always)
  const note = (prefix: string) => (m: string) => {
    call.notes.push(`${prefix}${escapeMessage(maskUrlCredentials(m))}`);
    if (prefix || !base.globals.quiet)
      base.io.stderr.write(`${tool.name}: ${prefix}${escapeMessage(maskUrlCredentials(m))}\n`);
  };
  const signal = AbortSignal.any([base.signal, call.signal]);
  const ctx: Context = {
    ...base,
    io: {
      ...base.io,
      stdout,
      // the protocol's channel is no command's: a file's inline content, or nothing
      stdin: call.stdin ?? Readable.from([]),
      stdoutIsTTY: false,
      stdinIsTTY: false,
      color: false,
      style: PLAIN,
      columns: 80,
      rows: 24,
    },
    globals: {
      ...base.globals,
      output: 'json',
      fields: undefined,
      query: undefined,
      queryText: undefined,
      interactive: false,
      yes: true,
      pager: false,
      via: 'mcp',
    },
    signal,
    info: note(''),
    warn: note('warning: '),
  };
  let connection: Promise<Connection> | undefined;
  ctx.connection = () => (connection ??= base.connection().then((c) => ({ ...c, guard: call.guard, signal })));
  const hooks = (): ClientHooks => ({ debug: debugSink(ctx), warn: (l) => ctx.warn(l), signal, pool: ctx.keepAlive });
  ctx.api = async () => (await import('../api/clients.js')).v3ClientOf(await ctx.connection(), hooks());
  ctx.apiV2 = async () => (await import('../api/clients.js')).v2ClientOf(await ctx.connection(), hooks());
  return ctx;
}
