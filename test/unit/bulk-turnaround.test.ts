// What keeps a bulk run's next request from waiting on the last answer's paperwork: the pool
// starts the next item inside release(), release() resolves a turn of the event loop later, and an
// export's PDF gives its slot back when it has arrived, before it is put in place.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import type { V3Client } from '../../src/api/v3.js';
import { runPool } from '../../src/bulk/pool.js';
import { savePdf } from '../../src/commands/report/shared/export-pdf.js';
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

describe('report export: a PDF’s slot is given back once it has arrived', () => {
  it('savePdf calls onAnswered when the body ends, before the file is in place', async () => {
    const dir = join(tmp.dir, 'pdfs');
    mkdirSync(dir);
    const seen: string[] = [];
    const client = {
      getReportPdf: async () => ({
        status: 200,
        headers: { 'content-type': 'application/pdf' },
        body: Readable.from([Buffer.from('%PDF-1.4 '), Buffer.from('body')]),
        request: { method: 'GET', url: 'http://x/v3/reports/1/pdf', operation: 'v3.getReportPdf' },
        attempts: 1,
        maybeApplied: false,
      }),
    } as unknown as V3Client;
    const saved = await savePdf(
      client,
      '1',
      'report-1.pdf',
      new Set<string>(),
      (n) => join(dir, n),
      () => seen.push(`answered; in place: ${existsSync(join(dir, 'report-1.pdf'))}`),
    );
    expect(seen).toEqual(['answered; in place: false']);
    expect(saved).toEqual({ name: 'report-1.pdf', outcome: 'saved', besideOf: undefined });
    expect(readFileSync(join(dir, 'report-1.pdf'), 'latin1')).toBe('%PDF-1.4 body');
  });
});
