// The one way assess puts bytes into a file (results, summary, inbox, exports, PDFs,
// config, caches). write(2) may take fewer bytes than it was given — a nearly full disk takes
// what fits and says so only by its count — so every write here loops until all of it is in or
// the system says why not; a write that makes no progress is an error, never a success. What a
// file promises to keep is fsync'd by its owner (AtomicFile on commit, the inbox before each
// 200, FileSink before it reports the file complete; the store is SQLite's).
import { close, fsync, open, write, writeSync } from 'node:fs';
import { Writable } from 'node:stream';
import { fileProblem } from './file-errors.js';

/** A write that took no bytes and gave no reason (write(2) returned 0). */
export class ShortWriteError extends Error {
  readonly code = 'ESHORTWRITE';
  constructor(
    readonly written: number,
    readonly wanted: number,
  ) {
    super(`only ${written} of ${wanted} bytes could be written`);
  }
}

const asBytes = (data: string | Uint8Array): Uint8Array =>
  typeof data === 'string' ? Buffer.from(data, 'utf8') : data;

/**
 * Writes every byte of `data` at the file's position (or at `position`), looping over short
 * writes; throws the system's error (ENOSPC, EIO…) or a ShortWriteError. Returns the byte count.
 */
export function writeAllSync(fd: number, data: string | Uint8Array, position: number | null = null): number {
  const bytes = asBytes(data);
  let done = 0;
  while (done < bytes.length) {
    const n = writeSync(fd, bytes, done, bytes.length - done, position === null ? null : position + done);
    if (!(n > 0)) throw new ShortWriteError(done, bytes.length);
    done += n;
  }
  return bytes.length;
}

/** writeAllSync off the event loop (fs.write on libuv's thread pool). */
export function writeAll(fd: number, data: Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    const step = (done: number) => {
      if (done >= data.length) return resolve();
      write(fd, data, done, data.length - done, null, (err, n) => {
        if (err) return reject(err);
        if (!(n > 0)) return reject(new ShortWriteError(done, data.length));
        step(done + n);
      });
    };
    step(0);
  });
}

export interface FileSinkOptions {
  /** How a message names the file: `the PDF`, `the export`… */
  what: string;
  /** Named in messages (the final name, when the sink writes a temp file beside it). */
  shownPath?: string;
  /** open(2) flags; default 'wx' (a new file, never an existing one). */
  flags?: string;
  /** What to do, when it fails (a hint line). */
  hint?: string;
}

/**
 * A Writable onto a new private file (0600) that writes every byte (writeAll), fsyncs before it
 * finishes, and fails with a usage error naming the file and the cause (exit 2) — so a full
 * disk is never mistaken for the network that fed the stream.
 */
export class FileSink extends Writable {
  private fd: number | null = null;
  bytes = 0;

  constructor(
    readonly path: string,
    private readonly o: FileSinkOptions,
  ) {
    super({ highWaterMark: 64 * 1024 });
  }

  private fail(err: unknown): Error {
    return (fileProblem(err, this.o.what, this.o.shownPath ?? this.path, this.o.hint) ?? err) as Error;
  }

  override _construct(cb: (err?: Error | null) => void): void {
    open(this.path, this.o.flags ?? 'wx', 0o600, (err, fd) => {
      if (err) return cb(this.fail(err));
      this.fd = fd;
      cb();
    });
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    writeAll(this.fd!, chunk).then(
      () => {
        this.bytes += chunk.length;
        cb();
      },
      (err: unknown) => cb(this.fail(err)),
    );
  }

  override _final(cb: (err?: Error | null) => void): void {
    fsync(this.fd!, (err) => {
      // EINVAL: nothing to sync (a device); anything else means the bytes may not be kept
      if (err && err.code !== 'EINVAL') return cb(this.fail(err));
      const fd = this.fd!;
      this.fd = null;
      close(fd, (e) => cb(e ? this.fail(e) : null));
    });
  }

  override _destroy(err: Error | null, cb: (err?: Error | null) => void): void {
    if (this.fd === null) return cb(err);
    const fd = this.fd;
    this.fd = null;
    close(fd, () => cb(err));
  }
}
