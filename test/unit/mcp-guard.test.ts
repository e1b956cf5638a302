// A tool call of `assess mcp` gives its command a connection with a guard (src/mcp/call.ts), and
// every client a command can get is made from a connection: ctx.api(), ctx.apiV2(), a bulk
// client (bulkClient), a raw transport (clientTransport, as `assess api` makes it). Whichever the
// command takes, a dry run sends no request that changes something (and lists it), a call that
// may change nothing sends none (refused), an allowed write's requests are listed as sent, and a
// cancelled call aborts its request under way.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Command } from 'commander';
import * as z from 'zod/mini';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientTransport } from '../../src/api/client-transport.js';
import { bulkClient } from '../../src/bulk/client.js';
import { defineCommand, flag, type NounDef } from '../../src/cli/command.js';
import { createContext, type Runtime } from '../../src/cli/context-factory.js';
import type { Context } from '../../src/context.js';
import { callTool, type CallSession } from '../../src/mcp/call.js';
import type { ToolEntry } from '../../src/mcp/catalogue.js';
import { FilesFolder } from '../../src/mcp/files.js';
import { commandFor, toolFromCommand } from '../../src/mcp/tool-from-command.js';
import { json, startServer } from '../helpers/http-server.js';
import { memoryProcess } from '../helpers/memory-io.js';

const VIAS = ['api', 'apiV2', 'bulk', 'transport'] as const;
const KEY = 'sk_test_guard_0123456789';

/** A read first (it goes out in every mode), then one write through the client named by `via`. */
const poke = defineCommand({
  name: 'poke',
  description: 'Reads, then changes something through the client named',
  examples: [],
  flags: { via: flag('the client', { value: 'via' }, () => z.enum(VIAS)) },
  handler: async () => ({ run: pokeRun }),
});
async function pokeRun(ctx: Context, input: { via: (typeof VIAS)[number] }): Promise<void> {
  await (await ctx.api()).transport.json({ operation: 't.read', method: 'GET', path: '/v3/tests', repeat: 'read' });
  if (input.via === 'api') await (await ctx.api()).processCallbacks(['900001']);
  if (input.via === 'apiV2') await (await ctx.apiV2()).createLink('1001', { testLinkName: 'Spring' });
  if (input.via === 'bulk') await (await bulkClient(ctx)).processCallbacks(['900002']);
  if (input.via === 'transport') {
    const { transport } = clientTransport(await ctx.connection(), {}, 'v3');
    await transport.json({ operation: 't.raw', method: 'DELETE', path: '/v3/anything', repeat: 'once' });
  }
  ctx.io.stdout.write('{"done":true}\n');
}
/** A read through the client named by `via`, which the service holds open (HOLD). */
const hold = defineCommand({
  name: 'hold',
  description: 'Reads through the client named, from a service that does not answer',
  examples: [],
  flags: { via: flag('the client', { value: 'via' }, () => z.enum(VIAS)) },
  handler: async () => ({ run: holdRun }),
});
async function holdRun(ctx: Context, input: { via: (typeof VIAS)[number] }): Promise<void> {
  const spec = { operation: 't.hold', method: 'GET', path: '/v3/hold', repeat: 'read' } as const;
  if (input.via === 'api') await (await ctx.api()).transport.json(spec);
  if (input.via === 'apiV2') await (await ctx.apiV2()).getTest('7');
  if (input.via === 'bulk') await (await bulkClient(ctx)).transport.json(spec);
  if (input.via === 'transport') await clientTransport(await ctx.connection(), {}, 'v3').transport.json(spec);
}
const HOLD = ['/v3/hold', '/v2/org/tests/7'];
let held: ((res: ServerResponse) => void) | undefined;
const noun = { name: 'probe', description: 'test', verbs: [poke, hold] } satisfies NounDef;
const toolOf = (entry: Omit<ToolEntry, 'path'>, verb = 'poke') =>
  toolFromCommand(commandFor(noun, verb), { path: ['probe', verb], ...entry });

let server: Awaited<ReturnType<typeof startServer>>;
let base: Context;
const rt: Runtime = { proc: memoryProcess({}), signal: new AbortController().signal, debug: false, exitHooks: [] };
const dir = mkdtempSync(join(tmpdir(), 'assess-mcp-guard-'));

beforeAll(async () => {
  server = await startServer((req, res) =>
    HOLD.includes(req.url)
      ? held?.(res)
      : req.url === '/v3/callbacks/process'
        ? json(res, 200, { result: { testinvitationIds: { successful: [900001], failed: [] } }, errors: null })
        : json(res, 200, {}),
  );
  const env = {
    ASSESS_API_KEY: KEY,
    ASSESS_BASE_URL: server.url,
    ASSESS_BASE_URL_V2: server.url,
    ASSESS_CONFIG_DIR: dir,
  };
  rt.proc = memoryProcess(env);
  base = await createContext(new Command('assess'), rt);
  base.globals.timeoutMs = 600_000; // what closes a held request is the cancellation, never the deadline
});

afterAll(async () => {
  for (const hook of rt.exitHooks.reverse()) await hook();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const session = (writes: boolean): CallSession => ({
  base,
  writesAllowed: () => writes,
  files: new FilesFolder(join(dir, 'files'), '--files'),
});
const writesSeen = () => server.requests.filter((r) => r.method !== 'GET');

describe('assess mcp: every client of a tool call passes its guard', () => {
  it.each(VIAS)('dry run through %s: the read goes out, the write is listed and not sent', async (via) => {
    const before = server.requests.length;
    const done = await callTool(toolOf({ writes: 'adds' }), { via, dryRun: true }, session(false));
    expect(done.outcome).toBe('dry-run');
    expect(done.requests).toHaveLength(1);
    expect(done.requests![0]).toMatchObject({ method: expect.stringMatching(/^(POST|DELETE)$/) });
    expect(done.result.structuredContent).toEqual({ dryRun: true, requests: done.requests });
    expect(server.requests.slice(before).map((r) => `${r.method} ${r.url}`)).toEqual(['GET /v3/tests']);
    expect(writesSeen()).toEqual([]);
  });

  it.each(VIAS)('a tool that only reads, through %s: refused, nothing sent', async (via) => {
    const done = await callTool(toolOf({}), { via }, session(true));
    expect(done.outcome).toBe('not-allowed');
    expect(done.result.isError).toBe(true);
    expect(done.result.structuredContent).toMatchObject({ error: { category: 'not allowed' } });
    expect(writesSeen()).toEqual([]);
  });

  it('an allowed write is sent, and listed as sent for the audit log', async () => {
    const done = await callTool(toolOf({ writes: 'adds' }), { via: 'bulk' }, session(true));
    expect(done.outcome).toBe('ok');
    expect(done.sent).toEqual([
      { method: 'POST', path: '/v3/callbacks/process', body: { testinvitationIds: [900002] } },
    ]);
    expect(writesSeen().map((r) => `${r.method} ${r.url} ${r.body}`)).toEqual([
      'POST /v3/callbacks/process {"testinvitationIds":[900002]}',
    ]);
  });

  it.each(VIAS)('a cancelled call aborts the request under way through %s, unanswered', async (via) => {
    const sentBefore = server.requests.filter((r) => HOLD.includes(r.url)).length;
    const stop = new AbortController();
    const closed = new Promise<boolean>((resolve) => {
      held = (res) => {
        res.on('close', () => resolve(res.writableEnded)); // only the client can close it: never answered
        stop.abort();
      };
    });
    const done = await callTool(toolOf({}, 'hold'), { via }, session(false), stop.signal);
    expect(await closed).toBe(false);
    expect(done.outcome).toBe('cancelled');
    expect(server.requests.filter((r) => HOLD.includes(r.url)).length - sentBefore).toBe(1); // not sent again
  });

  it('every transport in src/ is made from a connection (src/api/client-transport.ts), so none escapes the guard', () => {
    const src = join(import.meta.dirname, '../../src');
    const files = (d: string): string[] =>
      readdirSync(d, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? files(join(d, e.name)) : [join(d, e.name)],
      );
    const making = files(src).filter((f) => f.endsWith('.ts') && /new Transport\(/.test(readFileSync(f, 'utf8')));
    expect(making.map((f) => relative(src, f))).toEqual([join('api', 'client-transport.ts')]);
  });
});
