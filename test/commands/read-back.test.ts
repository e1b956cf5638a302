// A write whose answer is lost after the service carried it out (a 502 or a reset after the
// handler ran) is confirmed by reading the resource back (src/api/read-back.ts): `links update`
// and `settings set` then succeed with a "(confirmed)" warning. A write that was not carried out,
// or refused on its first try, still fails, and a refusal is not read back.
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startServer, type Recorded } from '../helpers/http-server.js';
import { runInProcess } from '../helpers/in-process.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let s: TestSandbox;
let proxy: Awaited<ReturnType<typeof startServer>>;
/** What the proxy does to the next POST: forward it and lose the answer, or answer it itself. */
let nextPost: 'pass' | 'apply-then-502' | 'apply-then-reset' | '502-unapplied' | '400-refused' = 'pass';

async function forward(req: Recorded): Promise<{ status: number; text: string; type: string }> {
  const res = await fetch(`${s.sb.baseUrl}${req.url}`, {
    method: req.method,
    headers: {
      'x-api-key': String(req.headers['x-api-key']),
      ...(req.body ? { 'content-type': 'application/json' } : {}),
    },
    body: req.body || undefined,
  });
  return { status: res.status, text: await res.text(), type: res.headers.get('content-type') ?? 'application/json' };
}

function handle(req: Recorded, res: ServerResponse): void {
  const fault = req.method === 'POST' ? nextPost : 'pass';
  if (req.method === 'POST') nextPost = 'pass';
  if (fault === '502-unapplied') return json(res, 502, { message: 'Bad gateway' });
  if (fault === '400-refused') return json(res, 400, { errors: ['invitationType is invalid'] });
  forward(req).then(
    (answer) => {
      if (fault === 'apply-then-502') return json(res, 502, { message: 'Bad gateway' });
      if (fault === 'apply-then-reset') return void res.socket?.destroy();
      res.writeHead(answer.status, { 'content-type': answer.type });
      res.end(answer.text);
    },
    () => json(res, 599, { message: 'proxy could not reach the sandbox' }),
  );
}

beforeAll(async () => {
  s = await startTestSandbox();
  proxy = await startServer((req, res) => handle(req, res));
});
afterAll(async () => {
  await proxy?.close();
  await s?.close();
});

const run = (args: string[]) => runInProcess(args, { env: { ...s.env, ASSESS_BASE_URL: proxy.url } });
const linkOf = async (testId: string, linkId: string) =>
  JSON.parse((await runInProcess(['links', 'get', testId, linkId, '--json'], { env: s.env })).stdout);
const settingsOf = async (testId: string) =>
  JSON.parse((await runInProcess(['settings', 'get', testId, '--json'], { env: s.env })).stdout);
const sinceNow = async () => {
  const before = proxy.requests.length;
  return () => proxy.requests.slice(before).map((q) => `${q.method} ${q.url}`);
};

describe('links update: an answer lost after the update was carried out', () => {
  it.each(['apply-then-502', 'apply-then-reset'] as const)(
    '%s: read back, the link has the new values → exit 0, confirmed',
    async (fault) => {
      const name = `Renamed after ${fault}`;
      nextPost = fault;
      const sent = await sinceNow();
      const r = await run(['links', 'update', '1001', '5003', '--name', name, '--json']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(
        /the answer to the update of test link 5003 was lost \((HTTP 502|\w+)\); read back, the link has the new values \(confirmed\)/,
      );
      expect(JSON.parse(r.stdout)).toMatchObject({ testLinkId: 5003, testLinkName: name });
      expect(sent()).toEqual([
        'GET /v3/tests/1001/testlinks/5003',
        'POST /v3/tests/1001/testlinks/5003',
        'GET /v3/tests/1001/testlinks/5003',
      ]);
      expect((await linkOf('1001', '5003')).testLinkName).toBe(name);
    },
  );

  it('a 502 before the service acted: read back, the change is not there → the 502 stands (exit 1)', async () => {
    const before = (await linkOf('1001', '5003')).testLinkName;
    nextPost = '502-unapplied';
    const r = await run(['links', 'update', '1001', '5003', '--name', 'Never stored']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/HTTP 502/);
    expect(r.stderr).not.toMatch(/confirmed/);
    expect((await linkOf('1001', '5003')).testLinkName).toBe(before);
  });

  it("a refusal on the first try (400) is not read back: exit 1 with the service's message", async () => {
    nextPost = '400-refused';
    const sent = await sinceNow();
    const r = await run(['links', 'update', '1001', '5003', '--name', 'Refused']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/HTTP 400: invitationType is invalid/);
    expect(sent()).toEqual(['GET /v3/tests/1001/testlinks/5003', 'POST /v3/tests/1001/testlinks/5003']);
  });
});

describe('settings set: an answer lost after the replace was carried out', () => {
  it.each(['apply-then-502', 'apply-then-reset'] as const)(
    '%s: read back, the settings hold the change → exit 0, confirmed',
    async (fault) => {
      const alias = `Alias after ${fault}`;
      nextPost = fault;
      const sent = await sinceNow();
      const r = await run([
        'settings',
        'set',
        '1001',
        '--set',
        `testSettings.testAliasName=${alias}`,
        '--yes',
        '--json',
      ]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(
        /the answer to the settings update of test 1001 was lost \((HTTP 502|\w+)\); read back, the settings have the new values \(confirmed\)/,
      );
      expect(JSON.parse(r.stdout).testSettings.testAliasName).toBe(alias);
      expect(sent()).toEqual([
        'GET /v3/tests/1001/settings',
        'POST /v3/tests/1001/settings',
        'GET /v3/tests/1001/settings',
      ]);
      expect((await settingsOf('1001')).testSettings.testAliasName).toBe(alias);
    },
  );

  it('a 502 before the service acted → the 502 stands (exit 1), settings unchanged', async () => {
    const before = (await settingsOf('1001')).testSettings.testAliasName;
    nextPost = '502-unapplied';
    const r = await run(['settings', 'set', '1001', '--set', 'testSettings.testAliasName=Never stored', '--yes']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/HTTP 502/);
    expect(r.stderr).not.toMatch(/confirmed/);
    expect((await settingsOf('1001')).testSettings.testAliasName).toBe(before);
  });
});
