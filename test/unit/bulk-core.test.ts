// Units of src/bulk: the pool (bound, lazy pull, stop on abort, first error), atomic files,
// progress line, sandbox latency parsing (the journal: test/unit/run-state.test.ts).
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AtomicFile, cleanStaleTemps, writeFileAtomic } from '../../src/files/atomic.js';
import { runPool } from '../../src/bulk/pool.js';
import { formatSeconds, Progress } from '../../src/bulk/progress.js';
import { inside } from '../../src/commands/report/shared/export-files.js';
import { latencyOf, parseLatency } from '../../src/sandbox/fault-spec.js';
import { tempDir } from '../helpers/cli.js';

const tmp = tempDir('assess-bulk-unit-');
afterAll(() => tmp.cleanup());
const tick = () => new Promise((r) => setTimeout(r, 1));

describe('runPool', () => {
  it('never runs more than `concurrency` at once and pulls the source lazily', async () => {
    let running = 0;
    let peak = 0;
    let pulled = 0;
    async function* source() {
      for (let i = 0; i < 50; i++) {
        pulled++;
        // the pool asks for the next item only when a slot is free
        expect(pulled - done).toBeLessThanOrEqual(4);
        yield i;
      }
    }
    let done = 0;
    const r = await runPool(source(), { concurrency: 3 }, async () => {
      peak = Math.max(peak, ++running);
      await tick();
      running--;
      done++;
    });
    expect(peak).toBe(3);
    expect(done).toBe(50);
    expect(r).toEqual({ started: 50, stopped: false });
  });

  it('on abort takes no new item but lets in-flight ones finish', async () => {
    const ac = new AbortController();
    const finished: number[] = [];
    const r = await runPool(
      Array.from({ length: 100 }, (_, i) => i),
      { concurrency: 4, signal: ac.signal },
      async (i) => {
        if (i === 5) ac.abort();
        await tick();
        finished.push(i);
      },
    );
    expect(r.stopped).toBe(true);
    expect(r.started).toBe(finished.length);
    expect(finished.length).toBeLessThan(10);
    expect(finished).toContain(5);
  });

  it('a worker that throws stops the pool; the error is thrown after in-flight items settle', async () => {
    const finished: number[] = [];
    await expect(
      runPool([1, 2, 3, 4, 5, 6, 7, 8], { concurrency: 2 }, async (i) => {
        await tick();
        if (i === 2) throw new Error('fatal 2');
        finished.push(i);
      }),
    ).rejects.toThrow('fatal 2');
    expect(finished).toContain(1);
    expect(finished.length).toBeLessThan(7);
  });
});

describe('runPool: slots given back early, the next item read ahead', () => {
  it('a released slot takes the next item while the worker goes on writing its outcome', async () => {
    let secondStarted!: () => void;
    const second = new Promise<void>((r) => (secondStarted = r));
    const order: string[] = [];
    const r = await runPool([1, 2], { concurrency: 1 }, async (i, release) => {
      order.push(`start ${i}`);
      if (i === 2) return secondStarted();
      void release();
      // without the early release this waits for ever (concurrency 1): the test times out
      await Promise.race([
        second,
        new Promise((_, no) => setTimeout(() => no(new Error('item 2 never started')), 2000)),
      ]);
      order.push(`outcome ${i}`);
    });
    expect(order).toEqual(['start 1', 'start 2', 'outcome 1']);
    expect(r).toEqual({ started: 2, stopped: false });
  });

  it('never holds more than `concurrency` slots, and bounds the workers still writing', async () => {
    let holding = 0;
    let peakHolding = 0;
    let alive = 0;
    let peakAlive = 0;
    await runPool(
      Array.from({ length: 60 }, (_, i) => i),
      { concurrency: 3 },
      async (_i, release) => {
        peakHolding = Math.max(peakHolding, ++holding);
        peakAlive = Math.max(peakAlive, ++alive);
        await tick();
        holding--;
        void release();
        await tick(); // writing the outcome, slot given back
        await tick();
        alive--;
      },
    );
    expect(peakHolding).toBe(3);
    expect(peakAlive).toBeGreaterThan(3);
    expect(peakAlive).toBeLessThanOrEqual(6);
  });

  it('a source that fails while items run is the pool’s error, thrown once they settle', async () => {
    const finished: number[] = [];
    async function* failing() {
      yield 1;
      yield 2;
      throw new Error('unreadable line 3');
    }
    await expect(
      runPool(failing(), { concurrency: 2 }, async (i) => {
        await tick();
        finished.push(i);
      }),
    ).rejects.toThrow('unreadable line 3');
    expect(finished.sort()).toEqual([1, 2]);
  });
});

describe('atomic files', () => {
  it('the final name appears only on commit; discard leaves nothing', () => {
    const target = join(tmp.dir, 'out.ndjson');
    const f = new AtomicFile(target);
    f.write('one\n');
    expect(existsSync(target)).toBe(false);
    f.commit();
    expect(readFileSync(target, 'utf8')).toBe('one\n');
    const g = new AtomicFile(join(tmp.dir, 'gone.ndjson'));
    g.write('x');
    g.discard();
    expect(readdirSync(tmp.dir).filter((n) => n.includes('gone'))).toEqual([]);
    writeFileAtomic(target, 'two\n');
    expect(readFileSync(target, 'utf8')).toBe('two\n');
  });

  it('keeps every byte in order across its buffer: many small lines, non-ASCII, bytes, and pieces larger than the buffer', () => {
    const target = join(tmp.dir, 'mixed.ndjson');
    const f = new AtomicFile(target);
    const parts: Array<string | Uint8Array> = [];
    for (let i = 0; i < 5000; i++) parts.push(`{"line":${i},"name":"Zoë Ünal ${'é'.repeat(i % 7)}"}\n`);
    parts.splice(1000, 0, new TextEncoder().encode('raw bytes ✓\n'));
    parts.splice(2000, 0, `${'x'.repeat(100_000)}\n`, `${'€'.repeat(30_000)}\n`);
    parts.splice(3000, 0, new Uint8Array(200_000).fill(0x41));
    for (const p of parts) f.write(p);
    f.commit();
    const expected = Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));
    expect(readFileSync(target).equals(expected)).toBe(true);
  });

  it('cleanStaleTemps removes temp files of dead writers only', () => {
    const dir = tempDir('assess-stale-');
    writeFileSync(join(dir.dir, '.a.pdf.999999999.0123abcd.part'), 'dead');
    writeFileSync(join(dir.dir, `.b.pdf.${process.pid}.0123abcd.part`), 'alive');
    writeFileSync(join(dir.dir, 'keep.pdf'), 'x');
    expect(cleanStaleTemps(dir.dir)).toBe(1);
    expect(readdirSync(dir.dir).sort()).toEqual([`.b.pdf.${process.pid}.0123abcd.part`, 'keep.pdf']);
    dir.cleanup();
  });

  it('names built from service data cannot leave the output directory', () => {
    expect(inside('/out', 'report-ann-1.pdf')).toBe('/out/report-ann-1.pdf');
    expect(() => inside('/out', '../etc/passwd')).toThrow(/would leave/);
    expect(() => inside('/out', 'a/b.pdf')).toThrow(/would leave/);
  });
});

describe('progress and latency', () => {
  it('draws count, percentage, rate and ETA', () => {
    let now = 0;
    const p = new Progress({ stream: process.stderr, enabled: false, total: 100, label: 'Inviting', now: () => now });
    now = 2000;
    p.tick(50);
    expect(p.line(100)).toMatch(/^Inviting \[#+-+\] 50\/100 50% · 25\/s · ETA 2s$/);
    expect(formatSeconds(125)).toBe('2m05s');
  });

  it('parses 5ms, 0.2s and 2-10ms; rejects nonsense', () => {
    expect(parseLatency('5ms')).toBe(5);
    expect(parseLatency('5')).toBe(5);
    expect(parseLatency('0.2s')).toBe(200);
    expect(parseLatency('2-10ms')).toEqual([2, 10]);
    expect(parseLatency('fast')).toMatch(/not a latency/);
    expect(parseLatency('10-2')).toMatch(/upper bound/);
    expect(latencyOf({ latencyMs: [2, 10] }, () => 0.5)).toBe(6);
  });
});
