// The journal of a bulk run in a store (src/bulk/run-state.ts): entries kept across reopen in the
// order first done, what counts as a possible e-mail across runs (attempts sent with one, less
// those the service surely refused, flags kept for good), runs apart by kind, name and target,
// and one run at a time per journal: a lock SQLite holds, which the kernel frees with the process.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { GroupCommit } from '../../src/bulk/group-commit.js';
import { RUNS_SCHEMA, RunState, type RunIdentity } from '../../src/bulk/run-state.js';
import { Store } from '../../src/store/db.js';
import { tempDir } from '../helpers/cli.js';
import { NODE, ROOT } from '../helpers/cli.js';

const tmp = tempDir('assess-run-state-');
afterAll(() => tmp.cleanup());
let n = 0;
const freshStore = () => Store.open(join(tmp.dir, `s${++n}.db`), [RUNS_SCHEMA], { what: 'the test store' });
const who: RunIdentity = {
  kind: 'invite',
  name: '1001 /data/cohort.csv',
  target: 'https://api.example.com (profile default)',
};
const now = () => new Date('2026-12-01T10:00:00Z');

describe('the journal of a run', () => {
  it('keeps done entries, the last run and the files written across reopen, in the order first done', () => {
    const store = freshStore();
    const j = RunState.open(store, who, { now });
    j.append({ k: 'b', n: 1 });
    j.append({ k: 'a', n: 2, wrote: 'report-a.pdf' });
    j.markFailed('c', { error: { status: 500 } });
    j.append({ k: 'b', n: 3 }); // done again: keeps its place, takes the new outcome
    j.recordRun({ to: '2026-01-01T00:00:00Z', wrote: ['summary.csv', 'index.html'] });
    const again = RunState.open(store, who, { now });
    expect(again.entries().map((e) => [e.k, e.n])).toEqual([
      ['b', 3],
      ['a', 2],
    ]);
    expect([again.has('c'), again.get('a')?.at]).toEqual([false, '2026-12-01T10:00:00.000Z']);
    expect(again.lastRun).toEqual({ to: '2026-01-01T00:00:00Z', wrote: ['summary.csv', 'index.html'] });
    expect([...again.wrote].sort()).toEqual(['index.html', 'report-a.pdf', 'summary.csv']);
    again.clear();
    expect([RunState.open(store, who, { now }).entries(), again.lastRun, again.wrote.size]).toEqual([[], null, 0]);
    store.close();
  });

  it('two attempts that may have e-mailed make a candidate "maybe twice", however many runs apart', () => {
    const store = freshStore();
    const j = RunState.open(store, who, { now });
    expect([j.markSending('a'), j.markSending('b')]).toEqual([false, false]);
    j.append({ k: 'b', outcome: 'invited' });
    expect([j.markSending('a'), j.markSending('c')]).toEqual([true, false]);
    const next = RunState.open(store, who, { now });
    expect(['a', 'b', 'c'].map((k) => next.maybeEmailedTwice(k))).toEqual([true, false, false]);
    expect(next.inFlightEarlier().sort()).toEqual(['a', 'c']);
    expect(next.emailedTwice()).toEqual(['a']);
    store.close();
  });

  it('an attempt the service surely refused e-mailed nobody; an uncertain failure counts; a flag stays', () => {
    const store = freshStore();
    const j = RunState.open(store, who, { now });
    j.markSending('a');
    j.markFailed('a', { error: { status: 400 } }, false);
    expect(j.markSending('a')).toBe(false);
    j.markSending('b');
    j.markFailed('b', {}, true);
    expect(j.markSending('b')).toBe(true);
    j.markFailed('d', { maybeEmailedTwice: true });
    j.append({ k: 'd', outcome: 'existing' });
    expect(['a', 'b', 'd'].map((k) => j.maybeEmailedTwice(k))).toEqual([false, true, true]);
    store.close();
  });

  it('runs of another kind, name or target are apart; forget() drops one', () => {
    const store = freshStore();
    RunState.open(store, who, { now }).append({ k: 'x' });
    for (const other of [
      { ...who, kind: 'export' as const },
      { ...who, name: '1001 /data/other.csv' },
      { ...who, target: 'sandbox:/cfg/sandbox' },
    ])
      expect(RunState.open(store, other, { now }).has('x')).toBe(false);
    const j = RunState.open(store, who, { now });
    expect(j.has('x')).toBe(true);
    j.forget();
    expect(RunState.open(store, who, { now }).has('x')).toBe(false);
    store.close();
  });
});

describe('one run at a time per journal', () => {
  it('a second run is refused, naming the holder; the lock is free once the first closes', () => {
    const store = freshStore();
    const first = RunState.open(store, who, { now, lock: true });
    expect(() => RunState.open(store, who, { now, lock: true })).toThrow(
      new RegExp(`the journal of this run \\(in .*\\) is in use by another assess run \\(pid ${process.pid} since `),
    );
    // another run (or a dry run, which does not lock) is not held up
    RunState.open(store, { ...who, name: 'other' }, { now, lock: true }).close();
    expect(RunState.open(store, who, { now }).has('x')).toBe(false);
    first.close();
    RunState.open(store, who, { now, lock: true }).close();
    store.close();
  });

  it('a holder killed with SIGKILL leaves no lock behind', async () => {
    const path = join(tmp.dir, 'killed.db');
    Store.open(path, [RUNS_SCHEMA], { what: 'the test store' }).close();
    const script = `
      import { Store } from './src/store/db.ts';
      import { RUNS_SCHEMA, RunState } from './src/bulk/run-state.ts';
      const store = Store.open(${JSON.stringify(path)}, [RUNS_SCHEMA], { what: 'x' });
      // kept referenced: a lock nobody holds on to is closed by the garbage collector
      globalThis.held = RunState.open(store, ${JSON.stringify(who)}, { now: () => new Date(), lock: true });
      console.log('held');
      setInterval(() => {}, 1000);`;
    const child = spawn(NODE, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT });
    onTestFinished(() => void child.kill('SIGKILL')); // also when an expectation fails
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => d.toString().includes('held') && resolve());
      child.once('exit', (code) => reject(new Error(`the holder exited (${code})`)));
    });
    const store = Store.open(path, [RUNS_SCHEMA], { what: 'the test store' });
    expect(() => RunState.open(store, who, { now, lock: true })).toThrow(/in use by another assess run/);
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    RunState.open(store, who, { now, lock: true }).close();
    store.close();
  });
});

describe('group commit', () => {
  it('the writes of one turn share a transaction; each is told once it is committed', async () => {
    const store = freshStore();
    const j = RunState.open(store, who, { now });
    const commits: number[] = [];
    const write = store.write.bind(store);
    store.write = ((fn: (s: Store) => unknown) => {
      if (!store.db.isTransaction) commits.push(1);
      return write(fn);
    }) as Store['write'];
    const group = new GroupCommit();
    const seen: string[] = [];
    await Promise.all(['a', 'b', 'c'].map((k) => group.run(store, () => j.append({ k })).then(() => seen.push(k))));
    expect(commits).toHaveLength(1);
    expect(seen.sort()).toEqual(['a', 'b', 'c']);
    await group.run(store, () => j.append({ k: 'd' }));
    expect(commits).toHaveLength(2);
    expect(j.entries().map((e) => e.k)).toEqual(['a', 'b', 'c', 'd']);
    // the store's own writes stay synchronous=FULL
    expect(store.db.prepare('PRAGMA synchronous').get()).toEqual({ synchronous: 2 });
    store.close();
  });

  it('a commit that fails fails every write of its turn, and none is in the file', async () => {
    const store = freshStore();
    const j = RunState.open(store, who, { now });
    const group = new GroupCommit();
    const results = await Promise.allSettled([
      group.run(store, () => j.append({ k: 'x' })),
      group.run(store, () => {
        throw new Error('disk gone');
      }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(j.has('x')).toBe(false);
    store.close();
  });
});
