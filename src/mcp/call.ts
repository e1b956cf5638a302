// One tool call: the arguments checked by the command's own schema, then the command's own run
// with a context whose stdout is a buffer and whose output format is --json; what it printed is
// the tool's structured content. Failures go through the one error → exit code map
// (src/cli/exit-codes.ts) and come back as a result naming the category and the fix.
// The call's connection carries a guard that sees every request of every client the command can
// make (ctx.api(), ctx.apiV2(), a bulk client, a raw transport: all are made from a connection):
// on a dry run, what would change something is held back and listed; a call that may change
// nothing cannot send it; an allowed write's requests are listed for the audit log.
import { Writable } from 'node:stream';
import { pickApi, showValue } from '../cli/command.js';
import { usageErrorFor } from '../cli/ask-missing.js';
import { checkDeclaredFields } from '../cli/json-fields.js';
import { describeError, EXIT, exitCodeFor } from '../cli/exit-codes.js';
import { maskUrlCredentials } from '../api/redact.js';
import { escapeMessage } from '../output/escape.js';
import type { Context } from '../context.js';
import type { Connection } from '../config/credentials.js';
import { UsageError } from '../errors.js';
import { PLAIN } from '../output/style.js';
import type { RequestSpec, SendGuard } from '../api/transport.js';
import { v2ClientOf, v3ClientOf } from '../cli/context-factory.js';
import { checkArguments, checkRequired, toolWording } from './arguments.js';
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
  /** Where a tool's file goes when the call names none (report's PDF). */
  filesDir(): string;
}

export interface CallOutcome {
  result: ToolResult;
  /** For the audit log. */
  outcome: 'ok' | 'dry-run' | 'not-allowed' | 'error' | 'no-such-tool';
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

/** The call's guard: reads (GET, or a query sent as a POST marked readOnly) go out; the rest as the mode says. */
function guardFor(mode: Mode): Guarded {
  const g: Guarded = {
    held: [],
    sent: [],
    guard: (spec: RequestSpec) => {
      if (spec.method === 'GET' || spec.readOnly) return;
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

export async function callTool(tool: DerivedTool, args: Record<string, unknown>, s: CallSession): Promise<CallOutcome> {
  const notes: string[] = [];
  const dryRun = args.dryRun === true;
  const mode: Mode = dryRun ? 'dry-run' : tool.entry.writes && s.writesAllowed(tool.name) ? 'writes' : 'read-only';
  const g = guardFor(mode);
  let out = '';
  try {
    const raw = checkArguments(tool, args);
    if (tool.entry.writes && !dryRun && !s.writesAllowed(tool.name)) return notAllowed(tool);
    const file = tool.entry.fileOutput;
    if (file && raw[file.when] === true && raw[file.key] === undefined) raw[file.key] = s.filesDir();
    const { def, command } = tool;
    if (raw.tz === undefined && s.base.globals.defaultTz !== undefined && def.tzFromProfile?.(raw))
      raw.tz = s.base.globals.defaultTz;
    checkRequired(tool, raw);
    const parsed = tool.parse(raw);
    if (!parsed.success) throw usageErrorFor(parsed.error.issues, raw, { label: (k) => k, show: showValue });
    const ctx = callContext(s.base, tool, (chunk) => (out += chunk), notes, g.guard);
    const run = pickApi(def, ctx, parsed.data as Record<string, unknown>, command);
    await checkDeclaredFields(run.jsonFields, parsed.data, ctx);
    await run.run(ctx, parsed.data);
  } catch (err) {
    // a command that reports a failed request and goes on is still a refused call, or a dry run
    if (!g.refused && !(dryRun && g.held.length))
      return { ...failed(tool, err, notes), ...(g.sent.length ? { sent: g.sent } : {}) };
  }
  if (g.refused) return refusedWrite(tool, g.refused);
  if (dryRun) return dryRunResult(tool, g.held, notes);
  const data = parseOutput(out);
  const structured =
    data !== null && typeof data === 'object' && !Array.isArray(data)
      ? (data as Record<string, unknown>)
      : { items: data };
  const json = JSON.stringify(data);
  return {
    outcome: 'ok',
    ...(g.sent.length ? { sent: g.sent } : {}),
    result: {
      content: [
        { type: 'text', text: [`${tool.title}: ${summarize(data)}`, ...notes].join('\n') },
        // clients that read only text content still get the whole answer
        { type: 'text', text: json },
      ],
      structuredContent: structured,
    },
  };
}

/**
 * The server's context with stdout a buffer, --json output, no prompts; writes confirmed by
 * --allow-writes. Its connection is the server's with the call's guard, and its clients are made
 * from that connection: whatever client a command gets, each request passes the guard.
 */
function callContext(
  base: Context,
  tool: DerivedTool,
  write: (s: string) => void,
  notes: string[],
  guard: SendGuard,
): Context {
  const stdout = new Writable({
    write(chunk: Buffer | string, _enc, cb) {
      write(chunk.toString());
      cb();
    },
  });
  // every notice goes into the tool's result; on stderr a notice only without -q (warnings always)
  const note = (prefix: string) => (m: string) => {
    notes.push(`${prefix}${escapeMessage(maskUrlCredentials(m))}`);
    if (prefix || !base.globals.quiet)
      base.io.stderr.write(`${tool.name}: ${prefix}${escapeMessage(maskUrlCredentials(m))}\n`);
  };
  const ctx: Context = {
    ...base,
    io: {
      ...base.io,
      stdout,
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
    info: note(''),
    warn: note('warning: '),
  };
  let connection: Promise<Connection> | undefined;
  ctx.connection = () => (connection ??= base.connection().then((c) => ({ ...c, guard })));
  ctx.api = () => v3ClientOf(ctx);
  ctx.apiV2 = () => v2ClientOf(ctx);
  return ctx;
}

function dryRunResult(tool: DerivedTool, requests: WouldSend[], notes: string[]): CallOutcome {
  const text = requests.length
    ? `${tool.title} (dry run): would send ${requests.map((r) => `${r.method} ${r.path}`).join(', ')}; nothing was sent`
    : `${tool.title} (dry run): nothing would be sent`;
  return {
    outcome: 'dry-run',
    requests,
    result: {
      content: [
        { type: 'text', text: [text, ...notes].join('\n') },
        { type: 'text', text: JSON.stringify({ dryRun: true, requests }) },
      ],
      structuredContent: { dryRun: true, requests },
    },
  };
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

function failed(tool: DerivedTool, err: unknown, notes: string[]): CallOutcome {
  const code = exitCodeFor(err);
  const category = CATEGORY[code] ?? 'failed';
  const { message, hint } = describeError(err, {});
  // a usage error names the command's flags: the model knows the tool's arguments
  const safe = (s: string) => escapeMessage(maskUrlCredentials(code === EXIT.usage ? toolWording(tool, s) : s));
  const result = errorResult(
    category,
    code,
    `${tool.name}: ${safe(message)}`,
    hint === undefined ? undefined : safe(hint),
  );
  if (notes.length) result.content.push({ type: 'text', text: notes.join('\n') });
  return { outcome: 'error', category, result };
}

function errorResult(
  category: string,
  exitCode: number | undefined,
  message: string,
  fix: string | undefined,
): ToolResult {
  return {
    isError: true,
    content: [{ type: 'text', text: `${category} error: ${message}${fix ? `\nfix: ${fix}` : ''}` }],
    structuredContent: {
      error: { category, ...(exitCode !== undefined ? { exitCode } : {}), message, ...(fix ? { fix } : {}) },
    },
  };
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

/** One line: how many rows, or the object's first fields. */
function summarize(data: unknown): string {
  if (Array.isArray(data)) return `${data.length} item${data.length === 1 ? '' : 's'}`;
  if (data === null) return 'done (nothing printed)';
  if (typeof data !== 'object') return showValue(data, 200);
  const entries = Object.entries(data as Record<string, unknown>).filter(
    ([, v]) => v === null || typeof v !== 'object',
  );
  const shown = entries.slice(0, 6).map(([k, v]) => `${k}=${showValue(v, 60)}`);
  const lists = Object.entries(data as Record<string, unknown>).filter(([, v]) => Array.isArray(v));
  return [...shown, ...lists.map(([k, v]) => `${k}: ${(v as unknown[]).length} item(s)`)].join(', ') || 'an object';
}
