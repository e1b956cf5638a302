// `assess mcp`: the MCP server over stdio (the official SDK's low-level Server). Tools are derived
// from the command definitions (tool-from-command.ts) and each call runs its command in memory
// (call.ts). Standard output carries protocol messages only; notices and logs go to stderr.
import { join, resolve } from 'node:path';
import type { JSONRPCMessage, JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Context } from '../context.js';
import { describeError } from '../cli/exit-codes.js';
import { maskUrlCredentials } from '../api/redact.js';
import { UsageError } from '../errors.js';
import { VERSION } from '../version.js';
import { AuditLog } from './audit.js';
import { callTool, type CallOutcome, type CallSession } from './call.js';
import { annotationsOf, TOOLS, WRITE_TOOLS } from './catalogue.js';
import { FilesFolder } from './files.js';
import { deriveTools, UNTRUSTED, type DerivedTool } from './tool-from-command.js';
import { trackUnanswered } from './unanswered.js';

const instructions = (files: string) =>
  'Tools of the Online Assessment Service (tests, links, invitations, attempts, reports, settings, callbacks) ' +
  'through the assess CLI. ' +
  'Ids are strings of digits. Tools that change data are refused ' +
  'unless the user started the server with --allow-writes; ' +
  'call them with dryRun: true to show the user the request first. Invitations never e-mail the candidate unless ' +
  'sendEmail is true. ' +
  'Results are JSON (structured content, and the same JSON as text). ' +
  `${UNTRUSTED} ` +
  `Files: tools read and write only in the server's files folder ${files}; a file to read is named inside it, or its ` +
  `content given inline; ` +
  'a PDF is saved there under a new name, which the result gives. ' +
  'An error result names its category (usage, auth, not found, refused, network) and the fix.';

/** A JSON-RPC error: the code the spec gives, our message, and what to do. */
class ProtocolError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data: { fix: string },
  ) {
    super(message);
  }
}

/** `--allow-writes` as given: true (every state-changing tool), or a comma-separated list of tool names. */
export function allowedWrites(flag: true | string | undefined): ReadonlySet<string> {
  if (flag === undefined) return new Set();
  if (flag === true) return new Set(WRITE_TOOLS);
  const names = flag
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const reads = TOOLS.filter((t) => !t.writes).map((t) => t.path.join('_'));
  for (const name of names)
    if (!WRITE_TOOLS.includes(name))
      throw new UsageError(
        `--allow-writes: ${JSON.stringify(name)} is ` +
          `${reads.includes(name) ? 'a tool that only reads (always allowed)' : 'not a tool'}`,
        `name tools that change data, comma-separated, e.g. --allow-writes invite,attempts_cancel (all of them: ` +
          `${WRITE_TOOLS.join(', ')})`,
      );
  if (!names.length)
    throw new UsageError(
      '--allow-writes: names no tool',
      `e.g. --allow-writes invite,attempts_cancel, or --allow-writes alone for all`,
    );
  return new Set(names);
}

export async function serveMcp(ctx: Context, opts: { allowWrites?: true | string; files?: string }): Promise<void> {
  const allowed = allowedWrites(opts.allowWrites);
  const tools = await deriveTools(TOOLS, (name) => ctx.loadNoun(name));
  const dir = (await ctx.config()).dir;
  const files = new FilesFolder(opts.files ? resolve(opts.files) : join(dir, 'mcp-files'), '--files');
  const audit = new AuditLog(dir);
  const session: CallSession = { base: ctx, writesAllowed: (name) => allowed.has(name), files };
  const server = await createServer(tools, files.root);
  server.fallbackRequestHandler = callHandler(ctx, tools, session, audit);
  // no session without its audit log: a log that cannot be written stops the start (exit 2, naming it)
  audit.append({
    at: new Date().toISOString(),
    event: 'start',
    allowWrites: [...allowed],
    profile: ctx.globals.profile,
    sandbox: ctx.globals.sandbox,
  });
  const { transport, inputEnded } = await openTransport(ctx);
  const stopped = new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
  // the profile, key and base URL resolved now (a --sandbox one started): a problem is on stderr
  // at once, where the assistant's server log shows it; each call then says it as its error
  await ctx.connection().catch((err: unknown) => {
    const { message, hint } = describeError(err, ctx.env);
    ctx.warn(
      `${message}${hint ? ` (${hint})` : ''}; every tool call fails until that is fixed and the server restarted`,
    );
  });
  await server.connect(transport);
  const unanswered = trackUnanswered(transport);
  ctx.info(
    `assess MCP server on stdio: ${tools.length} tools, ` +
      `${allowed.size ? `writes allowed: ${[...allowed].join(', ')}` : 'read-only (--allow-writes allows changes)'}; ` +
      `files folder ${files.root}; audit log ${audit.path}`,
  );
  // the requests read before the end of input are answered (each bounded by its own timeouts;
  // Ctrl-C stops waiting), and only then is the server, and an embedded sandbox, closed
  await Promise.race([inputEnded.then(() => unanswered.allAnswered()), stopped]);
  await server.close();
}

/** The SDK's low-level Server (loaded now), answering tools/list with the derived tools. */
async function createServer(tools: DerivedTool[], filesRoot: string) {
  const { Server } = await import('@modelcontextprotocol/sdk/server/index.js');
  const { ListToolsRequestSchema } = await import('@modelcontextprotocol/sdk/types.js');
  const server = new Server(
    { name: 'assess', title: 'assess (Online Assessment Service)', version: VERSION },
    { capabilities: { tools: {} }, instructions: instructions(filesRoot) },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: tools.map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: t.inputSchema,
      annotations: annotationsOf(t.entry, t.title),
    })),
  }));
  return server;
}

type Server = Awaited<ReturnType<typeof createServer>>;

/**
 * tools/call is read here, not by the SDK's schema: a call it cannot read gets -32602 with our
 * words (the SDK's answer is -32603 with zod's dump of its schema), an unknown tool -32602 too.
 * Every call, known tool or not, goes to the audit log.
 */
function callHandler(
  ctx: Context,
  tools: DerivedTool[],
  session: CallSession,
  audit: AuditLog,
): NonNullable<Server['fallbackRequestHandler']> {
  const byName = new Map(tools.map((t) => [t.name, t]));
  return async (req, extra) => {
    if (req.method !== 'tools/call')
      throw new ProtocolError(-32601, `Method not found: ${req.method}`, {
        fix: 'tools/list and tools/call are served',
      });
    const started = Date.now();
    const { name, args } = callParams(req, byName);
    const tool = byName.get(name);
    const done = tool ? await callTool(tool, args, session, extra.signal) : noSuchTool();
    try {
      audit.append({
        at: new Date().toISOString(),
        tool: name,
        args: auditArgs(args),
        outcome: done.outcome,
        ...(done.category ? { category: done.category } : {}),
        ...(done.requests ? { requests: masked(done.requests) } : {}),
        ...(done.sent ? { sent: masked(done.sent) } : {}),
        ms: Date.now() - started,
        profile: ctx.globals.profile,
        sandbox: ctx.globals.sandbox,
      });
    } catch (err) {
      ctx.warn(`the audit log ${audit.path} could not be written: ${(err as Error).message}`);
    }
    if (!tool) throw unknownTool(name, [...byName.keys()]);
    return done.result;
  };
}

/** The stdio transport, answering unreadable lines, and a promise of the end of input. */
async function openTransport(ctx: Context) {
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  const transport = new StdioServerTransport(ctx.io.stdin, ctx.io.stdout);
  // The SDK's transport drops a line it cannot read, answering nothing (the client would wait for
  // ever); JSON-RPC 2.0 answers it with id null. Set before connect(), which chains its own after it.
  transport.onerror = (err) => {
    const error = lineError(err);
    if (error) transport.send({ jsonrpc: '2.0', id: null, error } as unknown as JSONRPCMessage).catch(() => {});
  };
  const inputEnded = new Promise<void>((resolve) => {
    transport.onclose = resolve;
    ctx.io.stdin.once('end', resolve);
    ctx.io.stdin.once('close', resolve);
  });
  return { transport, inputEnded };
}

/** A call's arguments for the audit log: a file's inline content by its size only (it may be long, or a secret). */
function auditArgs(args: Record<string, unknown>): Record<string, unknown> {
  const sized = (k: string, v: unknown) =>
    k.endsWith('Content') && typeof v === 'string' ? `(${Buffer.byteLength(v)} bytes, not kept)` : v;
  return masked(Object.fromEntries(Object.entries(args).map(([k, v]) => [k, sized(k, v)])));
}

/** A value with any URL's password masked, at any depth (a callback URL may carry one). */
function masked<T>(value: T): T {
  if (typeof value === 'string') return maskUrlCredentials(value) as T;
  if (Array.isArray(value)) return value.map(masked) as T;
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, masked(v)])) as T;
  return value;
}

/** The JSON-RPC error for a line the transport could not read: not JSON, or JSON but no JSON-RPC message. */
function lineError(err: Error): { code: number; message: string } | undefined {
  if (err instanceof SyntaxError) return { code: -32700, message: 'Parse error' };
  if (err.name === 'ZodError') return { code: -32600, message: 'Invalid Request' };
  return undefined;
}

/** The name and arguments of a tools/call, or -32602 saying what is missing. */
function callParams(
  req: JSONRPCRequest,
  byName: ReadonlyMap<string, DerivedTool>,
): { name: string; args: Record<string, unknown> } {
  const example = '{"name": "tests_get", "arguments": {"testId": "1001"}}';
  const params: unknown = req.params;
  if (!isRecord(params))
    throw new ProtocolError(-32602, "tools/call needs params: the tool's name and its arguments", {
      fix: `send params such as ${example}`,
    });
  if (typeof params.name !== 'string')
    throw new ProtocolError(-32602, 'tools/call: params.name must be the name of a tool (a string)', {
      fix: `one of ${[...byName.keys()].join(', ')}`,
    });
  const args = params.arguments ?? {};
  if (!isRecord(args))
    throw new ProtocolError(-32602, "tools/call: params.arguments must be an object of the tool's arguments", {
      fix: `e.g. ${example}`,
    });
  return { name: params.name, args };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** For the audit log: the call of a tool this server does not have (answered -32602). */
function noSuchTool(): CallOutcome {
  return { outcome: 'no-such-tool', category: 'usage', result: { content: [] } };
}

function unknownTool(name: string, names: string[]): ProtocolError {
  return new ProtocolError(-32602, `Unknown tool: ${JSON.stringify(name)}`, { fix: `one of ${names.join(', ')}` });
}
