// One tool call: the arguments checked by the command's own schema, then the command's own run
// with a context whose stdout is a buffer and whose output format is --json; what it printed is
// the tool's structured content (call-context.ts). Failures go through the one error → exit code
// map (src/cli/exit-codes.ts) and come back as a result naming the category and the fix
// (call-results.ts). The call's connection carries a guard (call-guard.ts) that sees every
// request of every client the command can make (ctx.api(), ctx.apiV2(), a bulk client, a raw
// transport: all are made from a connection): on a dry run, what would change something is held
// back and listed; a call that may change nothing cannot send it; an allowed write's requests are
// listed for the audit log. It carries the call's signal too: a cancelled call aborts its
// requests, whichever client sent them.
// Files: a name inside the server's files folder or the content inline (files.ts), never a path.
import { Readable } from 'node:stream';
import { pickApi, showValue } from '../cli/command.js';
import { usageErrorFor } from '../cli/ask-missing.js';
import { checkDeclaredFields } from '../cli/json-fields.js';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { checkArguments, checkRequired } from './arguments.js';
import { callContext } from './call-context.js';
import { guardFor, type Mode } from './call-guard.js';
import {
  cancelled,
  dryRunResult,
  failed,
  jsonResult,
  notAllowed,
  parseOutput,
  refusedWrite,
  type CallOutcome,
} from './call-results.js';
import type { FilesFolder } from './files.js';
import type { DerivedTool } from './tool-from-command.js';

export type { WouldSend } from './call-guard.js';
export type { CallOutcome, ToolResult } from './call-results.js';

export interface CallSession {
  /** The `assess mcp` command's context: profile, base URL, sandbox, for every call. */
  base: Context;
  /** Whether a state-changing tool may run (`--allow-writes`). */
  writesAllowed(tool: string): boolean;
  /** The only folder a tool reads a named file from or writes one to. */
  files: FilesFolder;
}

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
