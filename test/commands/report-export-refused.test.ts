// `report export` stopped by a refused key (401/403) mid-run: the item whose request was refused
// is journaled as a failure and listed in the results, as every other failure is, so a re-run
// knows what happened to it (and retries it).
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { journalItems, ndjson } from '../helpers/bulk.js';
import { json, startServer } from '../helpers/http-server.js';
import { runInProcess } from '../helpers/in-process.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/cli.js';
import { storeOf } from '../helpers/store.js';

let s: TestSandbox;
let proxy: Awaited<ReturnType<typeof startServer>>;
const work = tempDir('assess-export-refused-');
const ids: number[] = [];
/** The report the proxy refuses as a key without the permission would be refused. */
let refused: number | undefined;

beforeAll(async () => {
  s = await startTestSandbox();
  for (let i = 0; i < 3; i++) {
    const inv = await s.service<{ testInvitationId: number }>('/v3/tests/1001/invite', {
      email: `r${i}@refused.example`,
      name: `Refused ${i}`,
    });
    await s.control('POST', `/invitations/${inv.testInvitationId}/simulate`, { to: 'complete', score: 50 });
    ids.push(inv.testInvitationId);
  }
  // in front of the sandbox: everything passes, but the refused report's request
  proxy = await startServer((req, res) => {
    if (refused !== undefined && req.url.startsWith(`/v3/reports/${refused}`))
      return json(res, 403, { statusCode: 403, message: 'Your key lacks permission for this operation' });
    const headers = {
      'x-api-key': String(req.headers['x-api-key'] ?? ''),
      'content-type': String(req.headers['content-type'] ?? 'application/json'),
    };
    fetch(`${s.sb.baseUrl}${req.url}`, {
      method: req.method,
      headers,
      body: req.method === 'GET' ? undefined : req.body,
    })
      .then(async (r) => {
        res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'application/json' });
        res.end(Buffer.from(await r.arrayBuffer()));
      })
      .catch(() => res.socket?.destroy());
  });
});

afterAll(async () => {
  await proxy?.close();
  await s?.close();
  work.cleanup();
});

describe('report export stopped by a refused key', () => {
  it('journals the refused item as a failure and lists it in the results; a re-run retries it', async () => {
    const out = join(work.dir, 'out');
    const args = ['report', 'export', '--from', '1d', '--to', '+1h', '--out', out, '--concurrency', '1'];
    const env = { ...s.env, ASSESS_BASE_URL: proxy.url };
    refused = ids[1]!;
    const r = await runInProcess(args, { env, configDir: work.dir });
    expect(r.code).toBe(3);
    const failed = journalItems(storeOf(work.dir), 'export').filter((i) => i.state === 'failed');
    expect(failed.map((i) => [i.key, i.entry.error])).toEqual([
      [String(refused), expect.objectContaining({ status: 403 })],
    ]);
    const results = ndjson<{ testInvitationId: number; outcome: string }>(join(out, 'export.results.ndjson'));
    expect(results.find((l) => l.testInvitationId === refused)).toMatchObject({ outcome: 'failed' });

    refused = undefined;
    const again = await runInProcess(args, { env, configDir: work.dir });
    expect(again.code).toBe(0);
    const rerun = ndjson<{ testInvitationId: number; outcome: string }>(join(out, 'export.results.ndjson'));
    expect(rerun.find((l) => l.testInvitationId === ids[1])).toMatchObject({ outcome: 'exported' });
  });
});
