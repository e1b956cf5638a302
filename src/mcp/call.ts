// One tool call: the arguments checked by the command's own schema, then the command's own run
// with a context whose stdout is a buffer and whose output format is --json; what it printed is
// the tool's structured content. Failures go through the one error → exit code map
// (src/cli/exit-codes.ts) and come back as a result naming the category and the fix.
// The call's connection carries a guard that sees every request of every client the command can
// make (ctx.api(), ctx.apiV2(), a bulk client, a raw transport: all are made from a connection):
// on a dry run, what would change something is held back and listed; a call that may change
// nothing cannot send it; an allowed write's requests are listed for the audit log. It carries the
// call's signal too: a cancelled call aborts its requests, whichever client sent them.
// Files: a name inside the server's files folder or the content inline (files.ts), never a path.
import { Readable, Writable } from 'node:stream';
import { pickApi, showValue } from '../cli/command.js';
import { usageErrorFor } from '../cli/ask-missing.js';
import { checkDeclaredFields } from '../cli/json-fields.js';
import { describeError, EXIT, exitCodeFor } from '../cli/exit-codes.js';
import { maskUrlCredentials } from '../api/redact.js';
import { escapeMessage } from '../output/escape.js';
import { debugSink, type Context } from '../context.js';
import type { Connection } from '../config/credentials.js';
import { UsageError } from '../errors.js';
import { PLAIN } from '../output/style.js';
import type { RequestSpec, SendGuard } from '../api/transport.js';
import type { ClientHooks } from '../api/client-transport.js';
import { checkArguments, checkRequired, toolWording } from './arguments.js';
import type { FilesFolder } from './files.js';
import type { DerivedTool } from './tool-from-command.js';

export interface ToolResult {
  [key: string]: unknown;
  content: Array<{ type: 'text'; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export interface CallSession {
  /** The `assess mcp` command's context: profile, base URL, sandbox, for every call. */
  base: Context;
  /** Whether a state-changing tool may run (`--allow-writes`). */
  writesAllowed(tool: string): boolean;
  /** The only folder a tool reads a named file from or writes one to. */
  files: FilesFolder;
}

export interface CallOutcome {
  result: ToolResult;
  /** For the audit log. */
  outcome: 'ok' | 'dry-run' | 'not-allowed' | 'error' | 'no-such-tool' | 'cancelled';
  category?: string;
  /** On a dry run: the requests held back. */
  requests?: WouldSend[];
  /** The requests that change something and were sent (an allowed write). */
  sent?: WouldSend[];
}

export interface WouldSend {
  method: string;
  path: string;
  query?: Record<string, unknown>;
  body?: unknown;
}

const CATEGORY: Record<number, string> = {
  [EXIT.usage]: 'usage',
  [EXIT.auth]: 'auth',
  [EXIT.notFound]: 'not found',
  [EXIT.failed]: 'refused',
  [EXIT.partial]: 'partial',
  [EXIT.network]: 'network',
  [EXIT.interrupted]: 'interrupted',
};

/** Thrown in place of sending a request that would change something, on a dry run. */
class DryRunStop extends Error {
  constructor() {
    super('dry run: not sent');
  }
}

/** Thrown in place of sending a request that would change something, from a call that may change nothing. */
class WriteRefused extends Error {
  constructor(r: WouldSend) {
    super(`${r.method} ${r.path} changes data and this call may change nothing: not sent`);
  }
}

/** What a call may send: reads only; its writes too; or, on a dry run, reads only, its writes listed. */
type Mode = 'read-only' | 'writes' | 'dry-run';

interface Guarded {
  guard: SendGuard;
  /** Dry run: held back. */
  held: WouldSend[];
  /** Writes: sent. */
  sent: WouldSend[];
  /** Read-only: the first request that was refused. */
  refused?: WouldSend;
}

/** The call's guard: reads (GET, or a query sent as a POST: the `read` repeat class) go out; the rest as the mode says. */
function guardFor(mode: Mode): Guarded {
  const g: Guarded = {
    held: [],
    sent: [],
    guard: (spec: RequestSpec) => {
      if (spec.method === 'GET' || spec.repeat === 'read') return;
      const r = wouldSend(spec);
      if (mode === 'dry-run') {
        g.held.push(r);
        throw new DryRunStop();
      }
      if (mode === 'read-only') {
        g.refused ??= r;
        throw new WriteRefused(r);
      }
      g.sent.push(r);
    },
  };
  return g;
}

const wouldSend = (spec: RequestSpec): WouldSend => ({
  method: spec.method,
  path: spec.path,
  ...(spec.query ? { query: spec.query } : {}),
  ...(spec.body !== undefined ? { body: spec.body } : {}),
});

export async function callTool(
  tool: DerivedTool,
  args: Record<string, unknown>,
  s: CallSession,
  signal: AbortSignal = new AbortController().signal,
): Promise<CallOutcome> {
  const notes: string[] = [];
  const dryRun = args.dryRun === true;
  const mode: Mode = dryRun ? 'dry-run' : tool.entry.writes && s.writesAllowed(tool.name) ? 'writes' : 'read-only';
  const g = guardFor(mode);
  let out = '';
  try {
    const raw = checkArguments(tool, args);
    if (tool.entry.writes && !dryRun && !s.writesAllowed(tool.name)) return notAllowed(tool);
    const stdin = fileInputs(tool, raw, s.files);
    const { def, command } = tool;
    if (raw.tz === undefined && s.base.globals.defaultTz !== undefined && def.behaviour.tzFromProfile?.(raw))
      raw.tz = s.base.globals.defaultTz;
    checkRequired(tool, raw);
    const parsed = tool.parse(raw);
    if (!parsed.success) throw usageErrorFor(parsed.error.issues, raw, { label: (k) => k, show: showValue });
    const input = parsed.data as Record<string, unknown>;
    const file = tool.entry.fileOutput;
    if (file && input[file.when] === true) input[file.key] = s.files.freshPath(file.name(input));
    const ctx = callContext(s.base, tool, { write: (chunk) => (out += chunk), notes, guard: g.guard, signal, stdin });
    const run = pickApi(def, ctx, input, command);
    await checkDeclaredFields(run.jsonFields, input, ctx);
    await run.run(ctx, input);
  } catch (err) {
    if (signal.aborted) return cancelled(tool);
    // a command that reports a failed request and goes on is still a refused call, or a dry run
    if (!g.refused && !(dryRun && g.held.length))
      return { ...failed(tool, err, notes), ...(g.sent.length ? { sent: g.sent } : {}) };
  }
  if (signal.aborted) return cancelled(tool);
  if (g.refused) return refusedWrite(tool, g.refused);
  if (dryRun) return dryRunResult(g.held, notes);
  const data = parseOutput(out);
  const structured =
    data !== null && typeof data === 'object' && !Array.isArray(data)
      ? (data as Record<string, unknown>)
      : { items: data };
  return { outcome: 'ok', ...(g.sent.length ? { sent: g.sent } : {}), result: jsonResult(structured, notes) };
}

/**
 * The call's file keys made what the command reads: a name, the real path of that file inside the
 * files folder; `<key>Content`, standard input (`-`). Returns that standard input, if any.
 */
function fileInputs(tool: DerivedTool, raw: Record<string, unknown>, files: FilesFolder): Readable | undefined {
  let stdin: Readable | undefined;
  for (const key of tool.entry.fileInputs ?? []) {
    const content = raw[`${key}Content`];
    delete raw[`${key}Content`];
    if (content !== undefined && raw[key] !== undefined)
      throw new UsageError(`${key}, ${key}Content: give one of them, not both`);
    if (typeof raw[key] === 'string') raw[key] = files.fileToRead(key, raw[key]);
    else if (typeof content === 'string') {
      raw[key] = '-';
      stdin = Readable.from([Buffer.from(content)]);
    }
  }
  return stdin;
}

/** A result: the JSON as structured content and as text (clients that read only text), notices apart. */
function jsonResult(structured: Record<string, unknown>, notes: string[], isError = false): ToolResult {
  return {
    ...(isError ? { isError: true } : {}),
    content: [
      { type: 'text', text: JSON.stringify(structured) },
      ...(notes.length ? [{ type: 'text' as const, text: JSON.stringify({ notices: notes }) }] : []),
    ],
    structuredContent: structured,
  };
}

interface CallIO {
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
function callContext(base: Context, tool: DerivedTool, call: CallIO): Context {
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

/** Cancelled by the client: the SDK sends no answer; this is for the audit log. */
function cancelled(tool: DerivedTool): CallOutcome {
  const message = `${tool.name}: cancelled by the client; requests under way were aborted`;
  return {
    outcome: 'cancelled',
    result: errorResult('cancelled', undefined, message, 'call it again if still wanted'),
  };
}

function dryRunResult(requests: WouldSend[], notes: string[]): CallOutcome {
  return { outcome: 'dry-run', requests, result: jsonResult({ dryRun: true, requests }, notes) };
}

/**
 * A call that may change nothing tried to (a write tool the server does not allow is refused
 * before it runs, so this is a tool that only reads): refused, nothing sent.
 */
function refusedWrite(tool: DerivedTool, r: WouldSend): CallOutcome {
  const message = `${tool.name} tried to send ${r.method} ${r.path}, which changes data, and this call may change nothing; it was not sent`;
  const fix =
    'this tool only reads and should send no such request: report it as a bug of assess (the audit log names the request)';
  return {
    outcome: 'not-allowed',
    category: 'not allowed',
    requests: [r],
    result: errorResult('not allowed', undefined, message, fix),
  };
}

function notAllowed(tool: DerivedTool): CallOutcome {
  const message = `${tool.name} changes data on the service, and this server allows no such tool`;
  const fix = `ask the user to restart it with: assess mcp --allow-writes ${tool.name} (or --allow-writes for all); dryRun: true shows the request meanwhile`;
  return {
    outcome: 'not-allowed',
    category: 'not allowed',
    result: errorResult('not allowed', undefined, message, fix),
  };
}

/** The fix of an error that names none of its own: by category, what an assistant can do. */
const FIXES: Record<string, string> = {
  usage: "correct the arguments as the message says (the tool's input schema lists them)",
  auth: 'ask the user to check the key of the profile: assess auth status (assess auth login stores one)',
  'not found': 'check the id: tests_list, links_list and attempts_list list what this account has',
  refused: "read the service's message: change the arguments, or tell the user what the service refused",
  partial: 'some items failed: the message names them; call the tool again for those only',
  network:
    'the service did not answer (network, time-out or rate limit): try again later, or ask the user to check the base URL',
  interrupted: 'the server was stopped; call the tool again once it runs',
  failed: 'tell the user; on the CLI, the same command with --debug shows more',
};

function failed(tool: DerivedTool, err: unknown, notes: string[]): CallOutcome {
  const code = exitCodeFor(err);
  const category = CATEGORY[code] ?? 'failed';
  const { message, hint } = describeError(err, {});
  // a usage error names the command's flags: the model knows the tool's arguments
  const safe = (s: string) => escapeMessage(maskUrlCredentials(code === EXIT.usage ? toolWording(tool, s) : s));
  const fix = hint === undefined ? FIXES[category]! : safe(hint);
  return {
    outcome: 'error',
    category,
    result: errorResult(category, code, `${tool.name}: ${safe(message)}`, fix, notes),
  };
}

function errorResult(
  category: string,
  exitCode: number | undefined,
  message: string,
  fix: string,
  notes: string[] = [],
): ToolResult {
  const error = { category, ...(exitCode !== undefined ? { exitCode } : {}), message, fix };
  return jsonResult({ error }, notes, true);
}

/** What --json printed: one JSON document (or NDJSON lines, as a list). */
function parseOutput(out: string): unknown {
  const text = out.trim();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    try {
      return text.split('\n').map((line) => JSON.parse(line) as unknown);
    } catch {
      return text;
    }
  }
}
