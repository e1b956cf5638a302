// A CSV that is not a regular file (a FIFO, `<(…)`, standard input) can be read only once, and
// bulk commands read their input twice (check every row, then send). Such input is copied once
// into a private temp file (directory 0700, file 0600: it holds names and e-mails), which is
// removed on every way out — the command's end, an error, Ctrl-C, and a second Ctrl-C (which
// exits at once, so only a process 'exit' listener still runs); after a kill -9, by the next spool.
import { closeSync, constants, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Context } from '../context.js';
import { CancelledError } from '../errors.js';
import { FileSink } from '../util/write-all.js';
import { removeLeftoversOnce } from '../util/leftovers.js';

export interface Spooled {
  path: string;
  cleanup(): void;
}

/** `assess-csv-<pid>-<random>`: the pid tells the next spool which ones a killed run left (names, e-mails). */
const SPOOL = /^assess-csv-(?<pid>\d+)-/;

export async function spoolPrivately(ctx: Context, source: Readable, opts: { fifo?: string } = {}): Promise<Spooled> {
  removeLeftoversOnce(tmpdir(), SPOOL);
  const dir = mkdtempSync(join(tmpdir(), `assess-csv-${process.pid}-`));
  const path = join(dir, 'input.csv');
  const cleanup = () => {
    rmSync(dir, { recursive: true, force: true });
    process.off('exit', cleanup);
  };
  process.on('exit', cleanup);
  ctx.onExit(cleanup);
  // A pending open of a FIFO keeps the process alive, and Node ends the pipeline only once
  // it completes: after Ctrl-C the open is released at once and then every 50 ms for as long as
  // the process lives (it may not be pending yet; unref'd, this keeps nothing alive itself)
  const release = () => {
    if (!opts.fifo) return;
    const fifo = opts.fifo;
    releaseBlockedOpen(fifo);
    setInterval(() => releaseBlockedOpen(fifo), 50).unref();
  };
  ctx.signal.addEventListener('abort', release, { once: true });
  try {
    const sink = new FileSink(path, {
      what: 'a private copy of the input in',
      hint: 'free space in the temporary directory, or point TMPDIR at another',
    });
    await pipeline(source, sink, { signal: ctx.signal });
  } catch (err) {
    cleanup();
    if (!ctx.signal.aborted) throw err;
    throw new CancelledError();
  } finally {
    ctx.signal.removeEventListener('abort', release);
  }
  return { path, cleanup };
}

/**
 * Opening a FIFO for reading blocks (in libuv's thread pool) until a writer comes; after Ctrl-C
 * that pending open would keep the process alive. Opening the write end without blocking lets
 * it complete (it reads end-of-file at once); ENXIO means nobody was waiting.
 */
function releaseBlockedOpen(fifo: string): void {
  try {
    closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
  } catch {
    // no reader waiting, or not a FIFO we may open: nothing to release
  }
}
