// `callbacks process` resumes an interrupted run of the same ids: the ids an earlier run of them
// queued are not queued again (a second notification each); once a run completes, the same ids
// are a new run (re-queueing on purpose still works).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { json, startServer } from '../helpers/http-server.js';
import { runInProcess } from '../helpers/in-process.js';

let api: Awaited<ReturnType<typeof startServer>>;
/** The request that fails (a refused key: the run stops), counted from 1; 0: none. */
let failAt = 0;
const cfg = tempDir();
beforeAll(async () => {
  api = await startServer((req, res, n) => {
    if (n === failAt)
      return json(res, 401, { statusCode: 401, message: 'Access denied due to invalid subscription key.' });
    const ids = (JSON.parse(req.body) as { testinvitationIds: number[] }).testinvitationIds;
    return json(res, 200, { result: { testinvitationIds: { successful: ids, failed: [] } }, errors: null });
  });
});
afterAll(async () => {
  await api?.close();
  cfg.cleanup();
});

const ids = Array.from({ length: 250 }, (_, i) => String(910_001 + i)); // three requests of at most 100
const run = () =>
  runInProcess(['callbacks', 'process', ...ids, '--concurrency', '1', '--json'], {
    env: { ASSESS_BASE_URL: api.url, ASSESS_API_KEY: 'k-0123456789abcdef' },
    configDir: cfg.dir,
  });
const sentIds = (from: number) =>
  api.requests.slice(from).flatMap((r) => (JSON.parse(r.body) as { testinvitationIds: number[] }).testinvitationIds);

describe('callbacks process: an interrupted run resumes', () => {
  it('a run stopped after its first request: the re-run sends only the ids not queued yet', async () => {
    failAt = 2;
    const first = await run();
    expect(first.code).toBe(3);
    expect(sentIds(0).slice(0, 100)).toEqual(ids.slice(0, 100).map(Number));
    const before = api.requests.length;
    failAt = 0;
    const again = await run();
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain(
      'Resuming an interrupted run of these 250 ids: 100 were queued by it and are not sent again.',
    );
    expect(sentIds(before)).toEqual(ids.slice(100).map(Number));
    const printed = JSON.parse(again.stdout) as Array<{ testInvitationId: number; status: string }>;
    expect(printed.map((r) => String(r.testInvitationId))).toEqual(ids);
    expect(printed.every((r) => r.status === 'successful')).toBe(true);
  });

  it('a run that completed is not resumed: the same ids again are queued again', async () => {
    const before = api.requests.length;
    const r = await run();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('Resuming');
    expect(sentIds(before)).toEqual(ids.map(Number));
  });
});
