// A bulk run is one process, the one the user started (no child Node, no V8 flags): it holds its
// journal's lock itself, SIGINT and SIGTERM wind it down once (exit 130, 143), kill -9 stops it at
// once and a re-run resumes from the journal, and a usage error is told once.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAssess, tempDir } from '../helpers/cli.js';
import { csvOf, doneItems, ndjson } from '../helpers/bulk.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { spawnAssess } from '../helpers/spawn.js';
import { query, storeOf } from '../helpers/store.js';
import { waitFor } from '../helpers/wait.js';

let slow: TestSandbox;
const work = tempDir('assess-bulk-one-');
const cfg = join(work.dir, 'config');
beforeAll(async () => {
  slow = await startTestSandbox({ latencyMs: 60 }); // a run of 30 rows one at a time takes ~2 s
});
afterAll(async () => {
  await slow?.close();
  work.cleanup();
});

let n = 0;
function cohort(rows = 30): { csv: string; tag: string } {
  const tag = `c${++n}.one.example`;
  const csv = join(work.dir, `${tag}.csv`);
  writeFileSync(csv, csvOf(Array.from({ length: rows }, (_, i) => [`r${i}@${tag}`, `R ${i}`])));
  return { csv, tag };
}
const sentFor = async (tag: string) =>
  (await slow.requests()).filter((r) => r.method === 'POST' && JSON.stringify(r.body ?? '').includes(tag)).length;
const done = (csv: string) => doneItems(storeOf(cfg), 'invite', `1001 ${csv}`).length;
const invite = (csv: string) =>
  spawnAssess(['invite', '1001', '--from-csv', csv, '--concurrency', '1'], { env: slow.env, configDir: cfg });
/** Children of a process (Linux /proc): a bulk run has none. */
const childPids = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
  } catch {
    return [];
  }
};

describe('a bulk run is one process', () => {
  it('the started process runs it and holds the journal: no child, the lock names its pid', async () => {
    const { csv } = cohort();
    const run = invite(csv);
    await waitFor(() => done(csv) > 0 || run.child.exitCode !== null, { timeoutMs: 20_000, what: 'the first row' });
    expect(childPids(run.child.pid!)).toEqual([]);
    expect(query<{ held_by: string }>(storeOf(cfg), 'SELECT held_by FROM run WHERE held_by IS NOT NULL')).toEqual([
      { held_by: expect.stringMatching(new RegExp(`^pid ${run.child.pid} since `)) },
    ]);
    const r = await run.done;
    expect(r.code, r.stderr).toBe(0);
    expect(ndjson(`${csv}.results.ndjson`)).toHaveLength(30);
  });

  it('kill -9 stops the run at once, nothing more is sent; a re-run resumes', async () => {
    const { csv, tag } = cohort();
    const run = invite(csv);
    await waitFor(() => done(csv) >= 3 || run.child.exitCode !== null, { timeoutMs: 20_000, what: 'three rows' });
    run.child.kill('SIGKILL');
    expect((await run.done).signal).toBe('SIGKILL');
    const sent = await sentFor(tag);
    await new Promise((r) => setTimeout(r, 300)); // three more rows' time: none may arrive
    expect(await sentFor(tag)).toBe(sent);
    expect(sent).toBeLessThan(30);
    const again = await runAssess(['invite', '1001', '--from-csv', csv], {
      env: slow.env,
      configDir: cfg,
      timeoutMs: 60_000,
    });
    expect(again.code, again.stderr).toBe(0);
    expect(await sentFor(tag)).toBeLessThanOrEqual(31); // at most the row in flight at the kill again
    expect(done(csv)).toBe(30);
  });

  it.each([
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ] as const)('%s winds the run down once and exits %i; a re-run finishes it', async (signal, code) => {
    const { csv } = cohort();
    const run = invite(csv);
    await waitFor(() => done(csv) >= 2 || run.child.exitCode !== null, { timeoutMs: 20_000, what: 'two rows' });
    run.child.kill(signal);
    const r = await run.done;
    expect(r.code, r.stderr).toBe(code);
    expect(r.stderr.match(/not sent yet/g) ?? [], r.stderr).toHaveLength(1);
    const finished = done(csv);
    expect(ndjson(`${csv}.results.ndjson`)).toHaveLength(finished);
    expect(finished).toBeLessThan(30);
    const again = await runAssess(['invite', '1001', '--from-csv', csv], {
      env: slow.env,
      configDir: cfg,
      timeoutMs: 60_000,
    });
    expect(again.stderr).toMatch(
      new RegExp(`: ${30 - finished} invited, ${finished} already invited \\(earlier run\\) in `),
    );
  });

  it('a usage error of a bulk command is told once, exit 2', async () => {
    const r = await runAssess(['invite', '1001', '--from-csv', join(work.dir, 'missing.csv')], { env: slow.env });
    expect(r.code).toBe(2);
    expect(r.stderr.match(/missing\.csv/g) ?? []).toHaveLength(1);
  });
});
