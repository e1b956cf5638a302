// Issue 15 item 1: --timeout is a total deadline per request (headers + body). A server that
// sends its headers at once and then one byte a second must not hold the CLI: exit 6, naming
// the request — for a plain GET, a PDF download and a bulk run.
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

describe('--timeout is a deadline for the whole answer', () => {
  it('tests list against a dripping server ends with exit 6 naming the request', async () => {
    const r = await runAssess(['tests', 'list', '--timeout', '2'], { env: env(), timeoutMs: 40_000 });
    expect(r.signal).toBeNull();
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/GET http:\/\/127\.0\.0\.1:\d+\/v3\/tests\S* timed out after 2 s/);
    expect(r.stderr).not.toMatch(/bug/);
  });

  it('a PDF download is bounded too, and leaves no partial file', async () => {
    const out = join(work.dir, 'r.pdf');
    const r = await runAssess(['report', '5001', '--pdf', '-o', out, '--timeout', '2'], {
      env: env(),
      timeoutMs: 40_000,
    });
    expect(r.signal).toBeNull();
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/GET \S+\/v3\/reports\/5001\/pdf timed out after 2 s/);
  });

  it('a bulk run is bounded per request (each row fails as a timeout)', async () => {
    const csv = join(work.dir, 'c.csv');
    writeFileSync(
      csv,
      csvOf([
        ['a@x.example', 'A'],
        ['b@x.example', 'B'],
      ]),
    );
    const r = await runAssess(['invite', '1001', '--csv', csv, '--timeout', '2'], { env: env(), timeoutMs: 40_000 });
    expect(r.signal).toBeNull();
    expect([5, 6]).toContain(r.code);
    const rows = ndjson<{ status: string; error?: string }>(`${csv}.results.ndjson`);
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(JSON.stringify(row)).toMatch(/timed out after 2 s/);
  });
});
