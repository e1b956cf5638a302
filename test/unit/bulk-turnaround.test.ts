// What keeps a bulk run's next request from waiting on the last answer's paperwork: the pool
// starts the next item inside release(), release() resolves a turn of the event loop later, and
// the journal's batches are fsync'd off the event loop (a failure surfaces on the next write).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Journal } from '../../src/bulk/journal.js';
import { runPool } from '../../src/bulk/pool.js';
import { tempDir } from '../helpers/cli.js';

const tmp = tempDir('assess-turnaround-');
afterAll(() => tmp.cleanup());

describe('runPool: the next item starts inside release()', () => {
  it('release() has started the next (ready) item before it returns', async () => {
    const order: string[] = [];
    let item2Ready!: () => void;
    const ready = new Promise<void>((r) => (item2Ready = r));
    await runPool([1, 2], { concurrency: 1 }, async (i, release) => {
      order.push(`start ${i}`);
      if (i === 2) return;
      // item 2 is read ahead after this turn of the event loop; wait until it has been
      setImmediate(() => setImmediate(item2Ready));
      await ready;
      const after = release();
      order.push(`release returned ${i}`);
      await after;
      order.push(`outcome ${i}`);
    });
    expect(order).toEqual(['start 1', 'start 2', 'release returned 1', 'outcome 1']);
  });

  it('release() resolves after a turn of the event loop (what the next request waits for), at once when called again', async () => {
    const order: string[] = [];
    await runPool([1], { concurrency: 1 }, async (_i, release) => {
      setImmediate(() => order.push('immediate queued before release'));
      const first = release();
      void Promise.resolve().then(() => order.push('microtask'));
      await first;
      order.push('released');
      await release();
      order.push('released again');
    });
    expect(order).toEqual(['microtask', 'immediate queued before release', 'released', 'released again']);
  });
});

describe('Journal: batches fsync’d off the event loop', () => {
  it('writes every line at once, syncs in the background, and syncs the rest on close', async () => {
    const path = join(tmp.dir, 'bg.ndjson');
    let syncs = 0;
    const j = await Journal.open(path, {
      fsync: (fd, cb) => {
        syncs++;
        setImmediate(() => cb(null));
      },
    });
    for (let i = 0; i < 200; i++) j.append({ k: `k${i}` });
    // written at once (kill -9 loses nothing), whatever the syncs are doing
    expect(readFileSync(path, 'utf8').trim().split('\n')).toHaveLength(200);
    expect(syncs).toBe(1); // one at a time: lines written while it runs wait for the next
    await new Promise((r) => setImmediate(r));
    expect(syncs).toBe(2);
    j.close();
    const again = await Journal.open(path);
    expect(again.entries.size).toBe(200);
    again.close();
  });

  it('a background fsync that failed is reported by the next write, and by close', async () => {
    const path = join(tmp.dir, 'fail.ndjson');
    const j = await Journal.open(path, {
      fsync: (_fd, cb) => setImmediate(() => cb(Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' }))),
    });
    for (let i = 0; i < 64; i++) j.append({ k: `k${i}` });
    await new Promise((r) => setImmediate(r));
    expect(() => j.append({ k: 'next' })).toThrow(/journal/);
    expect(() => j.close()).toThrow(/journal/);
  });

  it('a journal that cannot be synced (/dev/null) is no error', async () => {
    const j = await Journal.open('/dev/null');
    for (let i = 0; i < 100; i++) j.append({ k: `k${i}` });
    await new Promise((r) => setTimeout(r, 20));
    expect(() => j.append({ k: 'more' })).not.toThrow();
    expect(() => j.close()).not.toThrow();
  });
});
