// Deadlines, not idle timeouts: --try-timeout bounds each try's whole answer (headers and body),
// --timeout the whole command's waiting, retries included. A server that sends its headers at
// once and then one byte a second, or never answers at all, must not hold the CLI: exit 6,
// naming the request — for a plain GET, a PDF download and a bulk run.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAssess, tempDir } from '../helpers/cli.js';
import { startServer } from '../helpers/http-server.js';
import { csvOf, ndjson } from '../helpers/bulk.js';

let server: Awaited<ReturnType<typeof startServer>>;
const timers = new Set<NodeJS.Timeout>();
const work = tempDir('assess-deadline-');

/** Headers now, then one byte a second for a minute. */
function drip(res: ServerResponse, type: string, first: string) {
  res.writeHead(200, { 'content-type': type });
  res.write(first);
  let n = 0;
  const t = setInterval(() => {
    if (res.destroyed || ++n > 60) {
      clearInterval(t);
      timers.delete(t);
      if (!res.destroyed) res.end();
      return;
    }
    res.write(' ');
  }, 1000);
  timers.add(t);
  res.on('close', () => {
    clearInterval(t);
    timers.delete(t);
  });
}

beforeAll(async () => {
  server = await startServer((req, res) => {
    if (req.url.startsWith('/v3/tests/2002')) return; // never answers, not even its headers
    if (req.url.endsWith('/pdf')) return drip(res, 'application/pdf', '%PDF-1.4\n');
    drip(res, 'application/json', '{');
  });
});
afterAll(async () => {
  for (const t of timers) clearInterval(t);
  await server.close();
  work.cleanup();
});

const env = () => ({ ASSESS_BASE_URL: server.url, ASSESS_API_KEY: 'k'.repeat(32) });

const requestsTo = (part: string) => server.requests.filter((q) => q.url.includes(part)).length;

describe('--timeout is a deadline for the whole answer', () => {
  it('tests list against a dripping server ends with exit 6 naming the request', async () => {
    const r = await runAssess(['tests', 'list', '--timeout', '2'], { env: env(), timeoutMs: 40_000 });
    expect(r.signal).toBeNull();
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(
      /GET http:\/\/127\.0\.0\.1:\d+\/v3\/tests\S* timed out: the command's --timeout of 2 s passed/,
    );
    expect(r.stderr).toMatch(/raise --timeout \(the whole command's limit\)/);
    expect(r.stderr).not.toMatch(/bug/);
  });

  it('slow headers: --timeout is the whole command, so the GET is not tried again after it', async () => {
    const before = requestsTo('/v3/tests/2002');
    const r = await runAssess(['tests', 'get', '2002', '--timeout', '2'], { env: env(), timeoutMs: 40_000 });
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/the command's --timeout of 2 s passed/);
    expect(requestsTo('/v3/tests/2002') - before).toBe(1);
  });

  it('slow headers: --try-timeout is each try, so the GET is tried again up to its attempts', async () => {
    const before = requestsTo('/v3/tests/2002');
    const r = await runAssess(['tests', 'get', '2002', '--try-timeout', '1'], { env: env(), timeoutMs: 60_000 });
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/timed out after 1 s/);
    expect(r.stderr).toMatch(/raise --try-timeout/);
    expect(requestsTo('/v3/tests/2002') - before).toBe(4);
  });

  it('a PDF download is bounded too, and leaves no partial file', async () => {
    const out = join(work.dir, 'r.pdf');
    const r = await runAssess(['report', '5001', '--pdf', '-o', out, '--timeout', '2'], {
      env: env(),
      timeoutMs: 40_000,
    });
    expect(r.signal).toBeNull();
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/GET \S+\/v3\/reports\/5001\/pdf timed out: the command's --timeout of 2 s passed/);
  });

  it('a bulk run is bounded per request with --try-timeout (each row fails as a timeout)', async () => {
    const csv = join(work.dir, 'c.csv');
    writeFileSync(
      csv,
      csvOf([
        ['a@x.example', 'A'],
        ['b@x.example', 'B'],
      ]),
    );
    const r = await runAssess(['invite', '1001', '--csv', csv, '--try-timeout', '2'], {
      env: env(),
      timeoutMs: 40_000,
    });
    expect(r.signal).toBeNull();
    expect([5, 6]).toContain(r.code);
    const rows = ndjson<{ status: string; error?: string }>(`${csv}.results.ndjson`);
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(JSON.stringify(row)).toMatch(/timed out after 2 s/);
  });
});
