// Issue 30 point 4 (bulk memory): a bulk run happens in a child Node started with
// `--optimize-for-size` (src/cli/bulk-child.ts). Behaviour must stay that of one process: the
// started process ends as the run ends (exit code, signals), kill -9 of it stops the run at once,
// a usage error is told once, and everything else runs in one process.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAssess, tempDir } from '../helpers/cli.js';
import { csvOf, journalItems, ndjson } from '../helpers/bulk.js';
import { childPids, commandLine, workerPid } from '../helpers/bulk-child.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { spawnAssess } from '../helpers/spawn.js';
import { waitFor } from '../helpers/wait.js';

let slow: TestSandbox;
const work = tempDir('assess-bulk-child-');
beforeAll(async () => {
  slow = await startTestSandbox({ latencyMs: 60 }); // a run of 30 rows one at a time takes ~2 s
});
afterAll(async () => {
  await slow?.close();
  work.cleanup();
});

let n = 0;
function cohort(rows = 30): { csv: string; tag: string } {
  const tag = `c${++n}.child.example`;
  const csv = join(work.dir, `${tag}.csv`);
  writeFileSync(csv, csvOf(Array.from({ length: rows }, (_, i) => [`r${i}@${tag}`, `R ${i}`])));
  return { csv, tag };
}
const sentFor = async (tag: string) =>
  (await slow.requests()).filter((r) => r.method === 'POST' && JSON.stringify(r.body ?? '').includes(tag)).length;
const journalLines = (csv: string) =>
  existsSync(`${csv}.journal.ndjson`) ? journalItems(`${csv}.journal.ndjson`).length : 0;
const alive = (pid: number) => existsSync(`/proc/${pid}`);

describe('a bulk run in a child Node', () => {
  it('runs invite --from-csv in one child with --optimize-for-size, which holds the journal', async () => {
    const { csv } = cohort();
    const run = spawnAssess(['invite', '1001', '--from-csv', csv, '--concurrency', '1'], { env: slow.env });
    await waitFor(() => journalLines(csv) > 0 || run.child.exitCode !== null, {
      timeoutMs: 20_000,
      what: 'the first row',
    });
    const worker = workerPid(run.child.pid!);
    expect(commandLine(worker)).toContain('--optimize-for-size');
    expect(commandLine(run.child.pid!)).not.toContain('--optimize-for-size');
    const r = await run.done;
    expect(r.code, r.stderr).toBe(0);
    expect(ndjson(`${csv}.results.ndjson`)).toHaveLength(30);
  });

  it('kill -9 of the started process stops the run: the child is gone, nothing more is sent', async () => {
    const { csv, tag } = cohort();
    const run = spawnAssess(['invite', '1001', '--from-csv', csv, '--concurrency', '1'], { env: slow.env });
    await waitFor(() => journalLines(csv) >= 3 || run.child.exitCode !== null, {
      timeoutMs: 20_000,
      what: 'three rows',
    });
    const worker = workerPid(run.child.pid!);
    run.child.kill('SIGKILL');
    await waitFor(() => !alive(worker), { timeoutMs: 10_000, what: 'the child to die with its parent' });
    const sent = await sentFor(tag);
    await new Promise((r) => setTimeout(r, 300)); // three more rows' time: none may arrive
    expect(await sentFor(tag)).toBe(sent);
    expect(sent).toBeLessThan(30);
    // a re-run resumes from the journal and finishes
    const again = await runAssess(['invite', '1001', '--from-csv', csv], { env: slow.env, timeoutMs: 60_000 });
    expect(again.code, again.stderr).toBe(0);
    expect(await sentFor(tag)).toBeLessThanOrEqual(31); // at most the row in flight at the kill again
  });

  it.each([
    ['SIGTERM', 143],
    ['SIGINT', 130],
    ['SIGHUP', 129],
  ] as const)('%s to the started process winds the run down once and exits %i', async (signal, code) => {
    const { csv } = cohort();
    const run = spawnAssess(['invite', '1001', '--from-csv', csv, '--concurrency', '1'], { env: slow.env });
    await waitFor(() => journalLines(csv) >= 2 || run.child.exitCode !== null, { timeoutMs: 20_000, what: 'two rows' });
    const worker = workerPid(run.child.pid!);
    run.child.kill(signal);
    const r = await run.done;
    expect(r.code, r.stderr).toBe(code);
    expect(r.stderr.match(/not sent yet/g) ?? [], r.stderr).toHaveLength(1);
    expect(r.stderr).not.toMatch(/interrupted again/);
    expect(alive(worker)).toBe(false);
    expect(ndjson(`${csv}.results.ndjson`).length).toBeLessThan(30);
  });

  it('a child that does not stop (stuck in synchronous code) is killed at a second signal: exit 130, the journal resumes', async () => {
    const { csv } = cohort();
    const run = spawnAssess(['invite', '1001', '--from-csv', csv, '--concurrency', '1'], { env: slow.env });
    await waitFor(() => journalLines(csv) >= 2 || run.child.exitCode !== null, { timeoutMs: 20_000, what: 'two rows' });
    const worker = workerPid(run.child.pid!);
    // a stopped process handles no signal but SIGKILL, as one whose event loop is blocked
    process.kill(worker, 'SIGSTOP');
    try {
      run.child.kill('SIGINT');
      await new Promise((r) => setTimeout(r, 700)); // past the 500 ms in which a second signal is the first's echo
      run.child.kill('SIGINT');
      await waitFor(() => run.child.exitCode !== null || run.child.signalCode !== null, {
        timeoutMs: 15_000,
        what: 'the started process to end',
      });
    } finally {
      if (alive(worker)) process.kill(worker, 'SIGKILL'); // never leave a stopped process behind
    }
    const r = await run.done;
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toMatch(/interrupted again: .*killed it/);
    expect(alive(worker)).toBe(false);
    // every journal line is whole, and a re-run finishes the cohort from it
    const done = journalItems(`${csv}.journal.ndjson`).length;
    const again = await runAssess(['invite', '1001', '--from-csv', csv], { env: slow.env, timeoutMs: 60_000 });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(new RegExp(`: ${30 - done} invited, ${done} already invited \\(earlier run\\) in `));
  });

  it('the child killed (kill -9, the OOM killer): the started process ends by the same signal', async () => {
    const { csv } = cohort();
    const run = spawnAssess(['invite', '1001', '--from-csv', csv, '--concurrency', '1'], { env: slow.env });
    await waitFor(() => journalLines(csv) > 0 || run.child.exitCode !== null, {
      timeoutMs: 20_000,
      what: 'the first row',
    });
    process.kill(workerPid(run.child.pid!), 'SIGKILL');
    const r = await run.done;
    expect(r.code).toBeNull();
    expect(r.signal).toBe('SIGKILL'); // a shell reports 137, not success
  });

  it('a usage error of a bulk command is told once, exit 2', async () => {
    const r = await runAssess(['invite', '1001', '--from-csv', join(work.dir, 'missing.csv')], { env: slow.env });
    expect(r.code).toBe(2);
    expect(r.stderr.match(/missing\.csv/g) ?? []).toHaveLength(1);
  });

  it('reads the CSV from standard input through the child', async () => {
    const tag = 'stdin.child.example';
    const r = await runAssess(
      [
        'invite',
        '1001',
        '--from-csv',
        '-',
        '--journal',
        join(work.dir, 'stdin.journal'),
        '--results',
        join(work.dir, 'stdin.results'),
      ],
      {
        env: slow.env,
        stdin: csvOf([
          [`a@${tag}`, 'A'],
          [`b@${tag}`, 'B'],
        ]),
      },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(await sentFor(tag)).toBe(2);
  });

  it('ASSESS_BULK_CHILD=off runs the bulk run in the started process', async () => {
    const { csv } = cohort(10);
    const run = spawnAssess(['invite', '1001', '--from-csv', csv, '--concurrency', '1'], {
      env: { ...slow.env, ASSESS_BULK_CHILD: 'off' },
    });
    await waitFor(() => journalLines(csv) > 0 || run.child.exitCode !== null, {
      timeoutMs: 20_000,
      what: 'the first row',
    });
    expect(childPids(run.child.pid!)).toEqual([]);
    expect((await run.done).code).toBe(0);
  });

  it('a command that is not a bulk run has no child', async () => {
    const run = spawnAssess(['invite', '1001', '--email', 'one@single.child.example', '--name', 'One'], {
      env: slow.env,
    });
    const seen: number[] = [];
    while (run.child.exitCode === null) {
      seen.push(...childPids(run.child.pid!));
      await new Promise((r) => setTimeout(r, 10));
    }
    expect((await run.done).code).toBe(0);
    expect(seen).toEqual([]);
  });
});
