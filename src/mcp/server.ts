// `assess mcp`: the MCP server over stdio (the official SDK's low-level Server). Tools are derived
// from the command definitions (tool-from-command.ts) and each call runs its command in memory
// (call.ts). Standard output carries protocol messages only; notices and logs go to stderr.
import { join } from 'node:path';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Context } from '../context.js';
import { describeError } from '../cli/exit-codes.js';
import { maskUrlCredentials } from '../api/redact.js';
import { UsageError } from '../errors.js';
import { VERSION } from '../version.js';
import { makePrivateDir } from '../util/private-dir.js';
import { AuditLog } from './audit.js';
import { callTool, type CallOutcome, type CallSession } from './call.js';
import { TOOLS, WRITE_TOOLS } from './catalogue.js';
import { deriveTools } from './tool-from-command.js';
import { trackUnanswered } from './unanswered.js';

const INSTRUCTIONS =
  'Tools of the Online Assessment Service (tests, links, invitations, attempts, reports, settings, callbacks) through the assess CLI. ' +
  'Ids are strings of digits. Tools that change data are refused unless the user started the server with --allow-writes; ' +
  'call them with dryRun: true to show the user the request first. Invitations never e-mail the candidate unless sendEmail is true. ' +
  'An error result names its category (usage, auth, not found, refused, network) and the fix.';

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
        `--allow-writes: ${JSON.stringify(name)} is ${reads.includes(name) ? 'a tool that only reads (always allowed)' : 'not a tool'}`,
        `name tools that change data, comma-separated, e.g. --allow-writes invite,attempts_cancel (all of them: ${WRITE_TOOLS.join(', ')})`,
      );
  if (!names.length)
    throw new UsageError(
      '--allow-writes: names no tool',
      `e.g. --allow-writes invite,attempts_cancel, or --allow-writes alone for all`,
    );
  return new Set(names);
}

export async function serveMcp(ctx: Context, opts: { allowWrites?: true | string }): Promise<void> {
  const allowed = allowedWrites(opts.allowWrites);
  const tools = await deriveTools(TOOLS);
  const byName = new Map(tools.map((t) => [t.name, t]));
  const dir = (await ctx.config()).dir;
  const audit = new AuditLog(dir);
  const session: CallSession = {
    base: ctx,
    writesAllowed: (name) => allowed.has(name),
    filesDir: () => {
      const files = join(dir, 'mcp-files');
      makePrivateDir(files);
      return files;
    },
  };
  const { Server } = await import('@modelcontextprotocol/sdk/server/index.js');
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  const { ListToolsRequestSchema, CallToolRequestSchema } = await import('@modelcontextprotocol/sdk/types.js');
  const server = new Server(
    { name: 'assess', title: 'assess (Online Assessment Service)', version: VERSION },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: tools.map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: t.inputSchema,
      annotations: {
        title: t.title,
        readOnlyHint: !t.entry.writes,
        destructiveHint: t.entry.writes === true,
        openWorldHint: true,
      },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    const started = Date.now();
    const args = (req.params.arguments ?? {}) as Record<string, unknown>;
    const tool = byName.get(req.params.name);
    const done = tool ? await callTool(tool, args, session) : noSuchTool(req.params.name, [...byName.keys()]);
    try {
      audit.append({
        at: new Date().toISOString(),
        tool: req.params.name,
        args: masked(args),
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
    return done.result;
  });
  // no session without its audit log: a log that cannot be written stops the start (exit 2, naming it)
  audit.append({
    at: new Date().toISOString(),
    event: 'start',
    allowWrites: [...allowed],
    profile: ctx.globals.profile,
    sandbox: ctx.globals.sandbox,
  });
  const transport = new StdioServerTransport(ctx.io.stdin, ctx.io.stdout);
  // The SDK's transport drops a line it cannot read, answering nothing (the client would wait for
  // ever); JSON-RPC 2.0 answers it with id null. Set before connect(), which chains its own after it.
  transport.onerror = (err) => {
    const error = lineError(err);
    if (error) transport.send({ jsonrpc: '2.0', id: null, error } as unknown as JSONRPCMessage).catch(() => {});
  };
  const stopped = new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
  const inputEnded = new Promise<void>((resolve) => {
    transport.onclose = resolve;
    ctx.io.stdin.once('end', resolve);
    ctx.io.stdin.once('close', resolve);
  });
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
    `assess MCP server on stdio: ${tools.length} tools, ${allowed.size ? `writes allowed: ${[...allowed].join(', ')}` : 'read-only (--allow-writes allows changes)'}; audit log ${audit.path}`,
  );
  // the requests read before the end of input are answered (each bounded by its own timeouts;
  // Ctrl-C stops waiting), and only then is the server, and an embedded sandbox, closed
  await Promise.race([inputEnded.then(() => unanswered.allAnswered()), stopped]);
  await server.close();
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

function noSuchTool(name: string, names: string[]): CallOutcome {
  const message = `no tool ${JSON.stringify(name)}`;
  const fix = `one of ${names.join(', ')}`;
  return {
    outcome: 'no-such-tool',
    category: 'usage',
    result: {
      isError: true,
      content: [{ type: 'text', text: `usage error: ${message}\nfix: ${fix}` }],
      structuredContent: { error: { category: 'usage', message, fix } },
    },
  };
}
