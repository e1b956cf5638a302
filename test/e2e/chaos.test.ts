// Chaos: bulk invite and report export against a sandbox injecting ~20 % faults (5xx, 429,
// resets — half of the 5xx and resets AFTER the state change, so the client's retry repeats an
// invite that already happened — and answers cut off mid-body). Every candidate must be invited exactly once and every
// report
// and PDF exported, with exit 0. The spec uses the statuses the client retries (502/503/504);
// a separate case shows what a 500 (never retried) does: the row fails, the re-run completes,
// still no duplicate.
// Retries are raised to 10 attempts: at 20 % faults a row exhausts 4 attempts with chance
// 0.2^4 = 1/625 (≈ 3 of 2,000 rows would fail), 10 attempts 1 in ~10 million.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { runAssess, tempDir } from '../helpers/cli.js';
import { csvOf, csvRun, doneItems, ndjson } from '../helpers/bulk.js';
import { storeOf } from '../helpers/store.js';
import { spawnAssess } from '../helpers/spawn.js';
import { waitFor } from '../helpers/wait.js';

const CHAOS =
  '502=0.04,503=0.04,504=0.02,429=0.03,reset=0.05,truncate=0.02,after=0.5,retryAfter=0.1,latency=0ms..2ms,seed=20261122';

let sb: RunningSandbox;
let env: Record<string, string>;
const work = tempDir('assess-chaos-');
const configDir = join(work.dir, 'config');

beforeAll(async () => {
  sb = await startSandbox({ port: 0, host: '127.0.0.1' });
  env = {
    ASSESS_BASE_URL: sb.baseUrl,
    ASSESS_BASE_URL_V2: sb.baseUrlV2,
    ASSESS_API_KEY: sb.keys[0]!,
    ASSESS_CONFIG_DIR: configDir,
  };
  const r = await runAssess(['config', 'set', 'retries', '10'], { env, configDir });
  expect(r.code).toBe(0);
});
afterAll(async () => {
  await sb?.close();
  work.cleanup();
});

const control = async <T = any>(method: string, path: string, body?: unknown): Promise<T> => {
  const res = await fetch(`${sb.baseUrl}/_sandbox${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`control ${method} ${path} → ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
};
type Inv = { testInvitationId: number; email: string };
const invitationsOf = async (domain: string) =>
  (await control<{ invitations: Inv[] }>('GET', '/invitations')).invitations.filter((i) =>
    i.email.endsWith(`@${domain}`),
  );
const run = (args: string[]) => runAssess(args, { env, configDir, cwd: work.dir, timeoutMs: 120_000 });
const injected = (
  c: { injected: Record<string, { before: number; after: number }> },
  kind: string,
  when: 'before' | 'after',
) => c.injected[kind]?.[when] ?? 0;

/** One invitation per e-mail, and the ids the CLI reported are the sandbox's. */
function expectExactlyOnce(
  invs: Inv[],
  n: number,
  results: Array<{ row: { email: string }; testInvitationId: number }>,
) {
  const perEmail = new Map<string, number>();
  for (const i of invs) perEmail.set(i.email, (perEmail.get(i.email) ?? 0) + 1);
  expect(perEmail.size).toBe(n);
  expect([...perEmail.values()].filter((c) => c !== 1)).toEqual([]);
  const idOf = new Map(invs.map((i) => [i.email, i.testInvitationId]));
  expect(results.filter((l) => idOf.get(l.row.email) !== l.testInvitationId)).toEqual([]);
}

describe('chaos: bulk invite under ~20 % faults', () => {
  it('2,000 rows: every candidate invited exactly once, exit 0, although faults hit before and after the state change', async () => {
    const csv = join(work.dir, 'chaos.csv');
    writeFileSync(csv, csvOf(Array.from({ length: 2000 }, (_, i) => [`c${i}@chaos.example`, `Chaos Candidate ${i}`])));
    await control('POST', '/faults', { spec: CHAOS });
    const r = await run(['invite', '1001', '--csv', csv]);
    const counters = (await control('DELETE', '/faults')).counters;
    expect(r.stderr).toMatch(/: 2000 invited in /);
    expect(r.code).toBe(0);
    // the faults did happen, of every kind, on both sides of the state change
    expect(counters.total / counters.requests).toBeGreaterThan(0.15);
    for (const kind of ['502', '503', '504', 'reset']) {
      expect(injected(counters, kind, 'before')).toBeGreaterThan(0);
      expect(injected(counters, kind, 'after')).toBeGreaterThan(0);
    }
    expect(injected(counters, 'truncate', 'after')).toBeGreaterThan(0);
    expect(injected(counters, '429', 'before')).toBeGreaterThan(0);
    const results = ndjson<{ outcome: string; row: { email: string }; testInvitationId: number }>(
      `${csv}.results.ndjson`,
    );
    expect(results).toHaveLength(2000);
    expect(results.filter((l) => l.outcome !== 'invited')).toEqual([]);
    expectExactlyOnce(await invitationsOf('chaos.example'), 2000, results);
    expect(doneItems(storeOf(configDir), 'invite', csvRun(csv))).toHaveLength(2000);
  });

  it('500s (not retried) after the state change: those rows fail, the re-run completes them, still one invitation each', async () => {
    const csv = join(work.dir, 'five-hundred.csv');
    writeFileSync(csv, csvOf(Array.from({ length: 200 }, (_, i) => [`f${i}@five.example`, `Five Hundred ${i}`])));
    await control('DELETE', '/requests');
    await control('POST', '/faults', { spec: '500=0.1,reset=0.05,after=0.7,seed=7' });
    const first = await run(['invite', '1001', '--csv', csv]);
    const counters = (await control('DELETE', '/faults')).counters;
    expect(first.code).toBe(5);
    const failed = ndjson<{ outcome: string; error?: { status: number } }>(`${csv}.results.ndjson`).filter(
      (l) => l.outcome === 'failed',
    );
    // every invite answered 500 is a failed row (the lists read before the run repeat theirs)
    const log = (await control<{ requests: Array<{ path: string; status: number }> }>('GET', '/requests')).requests;
    expect(failed.length).toBe(log.filter((q) => q.path === '/v3/tests/1001/invite' && q.status === 500).length);
    expect(failed.every((l) => l.error?.status === 500)).toBe(true);
    expect(injected(counters, '500', 'after')).toBeGreaterThan(0); // some failed rows were in fact invited

    const again = await run(['invite', '1001', '--csv', csv]);
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(
      new RegExp(`: ${failed.length} invited, ${200 - failed.length} already invited \\(earlier run\\) in `),
    );
    const results = ndjson<{ outcome: string; row: { email: string }; testInvitationId: number }>(
      `${csv}.results.ndjson`,
    );
    expectExactlyOnce(await invitationsOf('five.example'), 200, results);
  });
});

describe('chaos: report export under ~20 % faults', () => {
  it('every report and PDF is exported and valid, the summary complete, exit 0', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 120; i++) {
      const res = await fetch(`${sb.baseUrl}/v3/tests/1001/invite`, {
        method: 'POST',
        headers: { 'X-API-KEY': sb.keys[0]!, 'content-type': 'application/json' },
        body: JSON.stringify({ email: `r${i}@export-chaos.example`, name: `Report Person ${i}` }),
      });
      const id = ((await res.json()) as Inv).testInvitationId;
      await control('POST', `/invitations/${id}/simulate`, { to: 'complete', score: (i * 41) % 100 });
      ids.push(id);
    }
    const out = join(work.dir, 'reports');
    await control('POST', '/faults', { spec: CHAOS });
    const r = await run([
      'report',
      'export',
      '--from',
      '1d',
      '--to',
      '+1h',
      '--out',
      out,
      '--pdf',
      '--type',
      'both',
      '--format',
      'json',
    ]);
    const counters = (await control('DELETE', '/faults')).counters;
    expect(r.stderr).toMatch(/: \d+ exported in /);
    expect(r.code).toBe(0);
    expect(counters.total).toBeGreaterThan(0);
    expect(injected(counters, 'reset', 'after')).toBeGreaterThan(0);
    expect(injected(counters, 'truncate', 'after')).toBeGreaterThan(0); // some JSON reports or PDFs were cut mid-body

    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as Array<{
      testInvitationId: number;
      pdf: string;
      sections: unknown[];
    }>;
    const mine = summary.filter((row) => ids.includes(Number(row.testInvitationId)));
    expect(mine).toHaveLength(120);
    expect(new Set(summary.map((row) => row.testInvitationId)).size).toBe(summary.length);
    for (const row of mine) {
      expect(row.sections.length).toBeGreaterThan(0);
      expect(existsSync(join(out, row.pdf))).toBe(true);
      const bytes = readFileSync(join(out, row.pdf));
      expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(bytes.subarray(-8).toString('latin1')).toMatch(/%%EOF/);
    }
    expect(readdirSync(out).filter((f) => f.endsWith('.part') || f.endsWith('.tmp'))).toEqual([]);
    expect(ndjson<{ outcome: string }>(join(out, 'export.results.ndjson')).every((l) => l.outcome === 'exported')).toBe(
      true,
    );
  });
});

describe('every answer cut off mid-body (truncate=1)', () => {
  it('invite and api exit 6 with "the answer broke off", never as a bug; the repeated invite made one invitation', async () => {
    await control('POST', '/faults', { spec: 'truncate=1' });
    const defaults = join(work.dir, 'default-config'); // the default 4 attempts, not the chaos runs' 10
    const runDefault = (args: string[]) =>
      runAssess(args, { env: { ...env, ASSESS_CONFIG_DIR: defaults }, configDir: defaults, cwd: work.dir });
    const inv = await runDefault(['invite', '1001', '--email', 'cut@truncate.example', '--name', 'Cut Off']);
    const api = await runDefault(['api', 'GET', '/v3/tests']);
    const counters = (await control('DELETE', '/faults')).counters;
    for (const r of [inv, api]) {
      expect(r.code).toBe(6);
      expect(r.stderr).toMatch(/the answer broke off \(UND_ERR_SOCKET\)/);
      expect(r.stderr).not.toMatch(/looks like a bug/);
    }
    // the cancelled list was read 4 times (then the look-up gives up: the expired list is not read),
    // the invite sent 4 times, the GET once (api sends as is)
    expect(counters.injected.truncate.after).toBe(4 + 4 + 1);
    expect(await invitationsOf('truncate.example')).toHaveLength(1);
  });
});

describe('assess sandbox faults (against a running sandbox)', () => {
  it('sets, shows and clears faults; a bad spec exits 2 and changes nothing', async () => {
    const url = ['--url', sb.baseUrl];
    const set = await run(['sandbox', 'faults', '503=0.5,seed=3', ...url, '--json']);
    expect(set.code).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({ spec: '503=0.5,seed=3', total: 0 });
    const bad = await run(['sandbox', 'faults', 'reset=1.5', ...url]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/reset=1.5: must be a probability from 0 to 1/);
    expect((await control('GET', '/faults')).spec).toBe('503=0.5,seed=3');
    const cleared = await run(['sandbox', 'faults', '--clear', ...url]);
    expect(cleared.code).toBe(0);
    expect(cleared.stderr).toMatch(/Faults cleared/);
    expect((await control('GET', '/faults')).spec).toBeNull();
  });

  it('sandbox serve --faults starts with them (and says so); a bad spec exits 2 before listening', async () => {
    const served = spawnAssess(['sandbox', 'serve', '--port', '0', '--json', '--faults', '503=1,seed=5'], {
      configDir: join(work.dir, 'serve-config'),
    });
    try {
      const { baseUrl } = JSON.parse(await served.firstLine()) as { baseUrl: string };
      // stdout and stderr are two pipes: the URL line can arrive before the notice
      await waitFor(() => /Injecting faults: 503=1,seed=5/.test(served.stderr()), {
        timeoutMs: 10_000,
        what: `the faults notice; stderr: ${served.stderr()}`,
      });
      const res = await fetch(`${baseUrl}/v3/tests`, { headers: { 'X-API-KEY': sb.keys[0]! } });
      expect(res.status).toBe(503);
      expect(
        ((await (await fetch(`${baseUrl}/_sandbox/faults`)).json()) as { counters: { total: number } }).counters.total,
      ).toBe(1);
    } finally {
      expect((await served.stop('SIGINT')).code).toBe(0);
    }
    const bad = await run(['sandbox', 'serve', '--port', '0', '--faults', '503=1,reset=0.5']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--faults: the fault chances add up to 1.5; at most 1/);
  });
});
