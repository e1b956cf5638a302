// Atomic output files: everything is written under a temp name in the same directory (same
// file system, so rename is atomic) and renamed into place only when complete. A kill -9 can
// leave a temp file behind, never a partial file under the final name; the first temp a run makes
// in a directory removes those whose writer is gone (cleanStaleTemps, also called by itself). A
// target that is a symlink is written through: the temp goes beside the file the link leads to
// and is renamed onto it (writeTarget), so the link stays.
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { asFileError } from '../util/file-errors.js';
import { removeLeftovers, removeLeftoversOnce } from '../util/leftovers.js';
import { writeAllSync } from '../util/write-all.js';
import { writeTarget } from './output-files.js';

const TEMP = /^\.(.+)\.(?<pid>\d+)\.[0-9a-f]{8}\.part$/;

/**
 * `.<name>.<pid>.<random>.part` beside the target. The random part only keeps two writers of one
 * process apart; the file is created with O_EXCL ('wx'), so a guessed name can make a write fail,
 * never write elsewhere. The first temp of a run in a directory removes the ones killed writers
 * left there (a kill -9 during a PDF download or `config set`).
 */
export function tempPathFor(target: string): string {
  removeLeftoversOnce(dirname(target), TEMP);
  const random = randomBytes(4).toString('hex');
  return join(dirname(target), `.${basename(target)}.${process.pid}.${random}.part`);
}

/** Removes temp files of writers that no longer run (left by kill -9); returns how many. */
export function cleanStaleTemps(dir: string): number {
  return removeLeftovers(dir, TEMP);
}

/**
 * The rename itself is kept over a power cut only once the directory is synced. Best effort: a
 * file system that cannot sync a directory (EINVAL, EISDIR on some) loses nothing it promised.
 */
function syncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // not supported here
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Writes the whole content at once: temp, fsync, rename (and the directory). */
export function writeFileAtomic(target: string, data: string | Uint8Array, what?: string): void {
  const file = new AtomicFile(target, what);
  try {
    file.write(data);
  } catch (err) {
    file.discard();
    throw err;
  }
  file.commit();
}

/**
 * A file built up in pieces (results, summaries). Small writes are collected in a 64 KB buffer
 * outside the JS heap (so a bulk run's result lines die young instead of waiting in the heap
 * until the next flush); commit() flushes, fsyncs and renames; discard() removes the temp file.
 * Every byte goes through writeAllSync; after the first failure every write and the commit
 * throw it again (a file with a hole is never put in place).
 */
export class AtomicFile {
  /** The file renamed onto: `target` with its symlinks followed (messages name `target`). */
  readonly real: string;
  readonly temp: string;
  private fd: number | null;
  private readonly buf = Buffer.allocUnsafeSlow(64 * 1024);
  private used = 0;
  private failure: unknown = null;

  /**
   * `what` names the file in an error (`the results`, `the summary`); `scrub` cleans each text
   * written (the run's secrets: a file the CLI writes shows no more than its output would).
   */
  constructor(
    readonly target: string,
    readonly what = 'the file',
    private readonly scrub: (text: string) => string = (text) => text,
  ) {
    this.real = writeTarget(target, what); // exit 2 for a device, FIFO, directory…: a rename would destroy it
    this.temp = tempPathFor(this.real);
    // Private: these files hold names, e-mails and test-taking URLs.
    try {
      this.fd = openSync(this.temp, 'wx', 0o600);
    } catch (err) {
      throw asFileError(err, what, target);
    }
  }

  write(data: string | Uint8Array): void {
    if (this.failure !== null) throw this.failure;
    try {
      this.put(typeof data === 'string' ? this.scrub(data) : data);
    } catch (err) {
      throw (this.failure = asFileError(err, this.what, this.target));
    }
  }

  private put(data: string | Uint8Array): void {
    if (this.fd === null) throw new Error(`${this.target} is already closed`);
    // A UTF-16 code unit takes at most 3 bytes in UTF-8.
    const most = typeof data === 'string' ? data.length * 3 : data.length;
    if (this.used + most > this.buf.length) this.drain();
    if (most > this.buf.length) writeAllSync(this.fd, data);
    else if (typeof data === 'string') this.used += this.buf.write(data, this.used, 'utf8');
    else this.used += Buffer.from(data.buffer, data.byteOffset, data.byteLength).copy(this.buf, this.used);
  }

  private drain(): void {
    if (!this.used || this.fd === null) return;
    const used = this.used;
    this.used = 0; // what did not fit is lost either way: the file is failed, never retried
    writeAllSync(this.fd, this.buf.subarray(0, used));
  }

  commit(): void {
    if (this.fd === null) {
      if (this.failure !== null) throw this.failure;
      return;
    }
    try {
      if (this.failure !== null) throw this.failure;
      this.drain();
      fsyncSync(this.fd);
      closeSync(this.fd);
      this.fd = null;
      renameSync(this.temp, this.real);
    } catch (err) {
      this.discard(); // no temp file left behind by a full disk
      throw (this.failure ??= asFileError(err, this.what, this.target));
    }
    syncDir(dirname(this.real));
  }

  discard(): void {
    if (this.fd !== null) {
      try {
        closeSync(this.fd);
      } catch {
        // closing a file on a full disk may fail; the temp is removed all the same
      }
    }
    this.fd = null;
    rmSync(this.temp, { force: true });
  }
}
