// Bulk runs against a sandbox with a rate limit: the run finds the limit from the
// 429s (no Retry-After, as the vendor) and keeps to it — every row invited once, few 429s, the
// summary counting each 429 the sandbox refused (also with --send-email: a 429 e-mailed nobody,
// so it is sent again); --rate caps the pace; --rate is checked strictly; the embedded sandbox
// takes its limit from ASSESS_SANDBOX_RATE_LIMIT. Counts, not times.
// The sandbox's bucket runs on this test's clock, which stands still until the bucket first
// refuses and then runs in real time: the first burst + 1 requests meet a full bucket that does
// not refill, however fast or slow this machine sends them, so the limit binds in every run; what
// the client does after its first 429 (finding the pace) happens in real time, as with the service.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAssess, tempDir } from '../helpers/cli.js';
import { csvOf, csvRun, journalItems, ndjson } from '../helpers/bulk.js';
import { storeOf } from '../helpers/store.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let s: TestSandbox;
const work = tempDir('assess-bulk-rate-');
let runningSince: number | undefined;
const bucketClock = () => {
  if (runningSince === undefined && s?.sb.rateLimit.view().refused) runningSince = performance.now();
  return runningSince === undefined ? 0 : performance.now() - runningSince;
};
/** A new limit (counters from zero), its bucket's clock standing still until it first refuses, or running from now. */
async function limit(spec: string, clock: 'from the first 429' | 'running' = 'from the first 429') {
  runningSince = clock === 'running' ? performance.now() : undefined;
  await s.control('POST', '/rate-limit', { spec });
}
beforeAll(async () => {
  s = await startTestSandbox({ latencyMs: 5, rateLimit: '50/s', rateLimitClock: bucketClock });
});
afterAll(async () => {
  await s?.close();
  work.cleanup();
});

type Counters = { perSecond: number | null; admitted: number; refused: number };
type Summary = { done: number; failed: number; throttled: number; pace: number | null; perSecond: number };
/** The two lists a bulk invite reads before it sends (cancelled, expired: a reopened one is said so). */
const LISTS = 2;
const cfg = join(work.dir, 'config');
const run = (args: string[], env: Record<string, string> = s.env) =>
  runAssess(args, { env, cwd: work.dir, configDir: cfg, timeoutMs: 90_000 });
const rows = (domain: string, n: number) =>
  Array.from({ length: n }, (_, i) => [`cand${i}@${domain}`, `Candidate ${i}`]);
const invitationsOf = async (domain: string) =>
  (await s.control<{ invitations: Array<{ email: string }> }>('GET', '/invitations')).invitations.filter((i) =>
    i.email.endsWith(`@${domain}`),
  );

describe('invite --from-csv against a rate limit of 50/s', () => {
  it('every row invited once, the limit found with few 429s, each one counted in the summary', async () => {
    const csv = join(work.dir, 'limited.csv');
    writeFileSync(csv, csvOf(rows('limited.example', 400)));
    await limit('50/s');
    const r = await run(['invite', '1001', '--from-csv', csv, '--json']);
    const counters = await s.control<Counters>('GET', '/rate-limit');
    expect(r.code, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout) as Summary;
    expect(summary).toMatchObject({ done: 400, failed: 0 });
    expect(counters.admitted).toBe(400 + LISTS); // each row's invitation admitted once, no row sent twice
    expect(counters.refused).toBeGreaterThan(0); // the limit did bind…
    expect(counters.refused).toBeLessThanOrEqual(20); // …and was found: at most 5 % of the requests refused
    expect(summary.throttled).toBe(counters.refused);
    expect(summary.pace).not.toBeNull();
    const invs = await invitationsOf('limited.example');
    expect(invs).toHaveLength(400);
    expect(new Set(invs.map((i) => i.email)).size).toBe(400);
    expect(ndjson<{ outcome: string }>(`${csv}.results.ndjson`).filter((l) => l.outcome !== 'invited')).toEqual([]);
  });

  it('--send-email: a 429 is sent again too (it was refused on arrival, nothing was e-mailed): every row invited and e-mailed once', async () => {
    const csv = join(work.dir, 'emailed.csv');
    writeFileSync(csv, csvOf(rows('emailed.example', 60)));
    await limit('15/s');
    const r = await run(['invite', '1001', '--from-csv', csv, '--send-email', '--json']);
    const counters = await s.control<Counters>('GET', '/rate-limit');
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ done: 60, failed: 0 });
    expect(counters.refused).toBeGreaterThan(0); // the limit did bind
    expect(counters.admitted).toBe(60 + LISTS);
    const emails = (await s.control<{ emails: Array<{ to: string }> }>('GET', '/outbox')).emails.filter((e) =>
      e.to.endsWith('@emailed.example'),
    );
    expect(emails).toHaveLength(60);
    expect(new Set(emails.map((e) => e.to)).size).toBe(60);
    expect(journalItems(storeOf(cfg), 'invite', csvRun(csv)).filter((i) => i.state !== 'done')).toEqual([]);
  });

  it('--rate 20/s paces from the first request: nothing refused', async () => {
    const csv = join(work.dir, 'capped.csv');
    writeFileSync(csv, csvOf(rows('capped.example', 60)));
    // a second's worth banked: slots a stalled run sends late, together, are not refused
    await limit('50/s', 'running');
    const r = await run(['invite', '1001', '--from-csv', csv, '--rate', '20/s', '--json']);
    const counters = await s.control<Counters>('GET', '/rate-limit');
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ done: 60, throttled: 0, pace: 20 });
    expect(counters).toMatchObject({ admitted: 60 + LISTS, refused: 0 });
  });

  it('callbacks process answers every id once though the limit refuses some requests', async () => {
    await limit('2/s,burst=1');
    const ids = Array.from({ length: 250 }, (_, i) => String(900_001 + i));
    const r = await run(['callbacks', 'process', ...ids, '--json']);
    const counters = await s.control<Counters>('GET', '/rate-limit');
    expect([0, 5]).toContain(r.code); // ids the service does not know are failed (exit 5), not lost
    const results = JSON.parse(r.stdout) as Array<{ testInvitationId: number }>;
    expect(results.map((x) => String(x.testInvitationId))).toEqual(ids);
    expect(counters.refused).toBeGreaterThan(0);
    expect(r.stderr).toMatch(/answered 429 \(too many requests\) were sent again/);
    await s.control('DELETE', '/rate-limit');
  });

  it.each([['fast'], ['0/s'], ['25/hour'], ['-3']])(
    '--rate %s: exit 2 naming the flag and an example, nothing sent',
    async (value) => {
      const csv = join(work.dir, 'bad-rate.csv');
      writeFileSync(csv, csvOf(rows('bad-rate.example', 2)));
      const before = (await s.requests()).length;
      const r = await run(['invite', '1001', '--from-csv', csv, `--rate=${value}`]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/--rate/);
      expect(r.stderr).toMatch(/--rate 25\/s/);
      expect((await s.requests()).length).toBe(before);
    },
  );
});

describe('the embedded sandbox (--sandbox) and ASSESS_SANDBOX_RATE_LIMIT', () => {
  it("limits the embedded sandbox: its bucket is the variable's, and a bulk run through it invites every row once", async () => {
    const env = { ASSESS_SANDBOX_RATE_LIMIT: '20/s,burst=5' };
    const shown = await run(['--sandbox', 'api', 'GET', '/_sandbox/rate-limit'], env);
    expect(shown.code, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({ spec: '20/s,burst=5', perSecond: 20, burst: 5 });
    const csv = join(work.dir, 'embedded.csv');
    writeFileSync(csv, csvOf(rows('embedded.example', 40)));
    // whether this run meets a 429 depends on how fast this machine sends (the embedded sandbox's
    // clock is real time); a run meeting them is the test sandbox's case above
    const r = await run(['--sandbox', 'invite', '1001', '--from-csv', csv, '--json'], env);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ done: 40, failed: 0 });
  });

  it('a bad value is exit 2 naming the variable', async () => {
    const r = await run(['--sandbox', 'tests', 'list'], { ASSESS_SANDBOX_RATE_LIMIT: 'lots' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/ASSESS_SANDBOX_RATE_LIMIT/);
  });
});
