// `assess … | head` closes the pipe early: that is the reader's choice, not an error. Any other
// failure of stdout (a full disk behind `> file`) is a place we cannot write: exit 2 naming it,
// not a stack trace.
//
// On a regular file, a block device or a character device that is not a terminal (`> /dev/full`)
// every byte is written or the write fails: Node's stream there (a SyncWriteStream) ignores how
// much write(2) took (a nearly full disk takes what fits and says so only by its count), and on
// a block device it drops everything. There each write goes through writeAllSync, whose error
// (ENOSPC, EDQUOT, EFBIG, EIO…) reaches the handler below. Pipes and terminals keep Node's stream.
// (The override stays on process.stdout rather than being a Writable of our own: Node's pipe()
// and pipeline() never end process.stdout, and a command may pipe into ctx.io.stdout.)
//
// Attached when stdout is first used rather than at start: Node builds process.stdout on first
// use, and on a pipe that loads node:net (~3 ms of a command whose only output is on stderr).
// The entry (dist/main.cjs) and the programs are separate bundles, each with a copy of this
// module: the mark lives on the stream, so the handler is attached once.
import { fstatSync } from 'node:fs';
import { writeAllSync } from '../util/write-all.js';

const GUARDED = Symbol.for('assess.stdout-guarded');

export function guardedStdout(): NodeJS.WriteStream {
  const out = process.stdout as NodeJS.WriteStream & { [GUARDED]?: true };
  if (!out[GUARDED]) {
    out[GUARDED] = true;
    if (!out.isTTY && fileLike(1)) out._write = writeEveryByte;
    out.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      // a terminal that hung up: nowhere to say anything; the run winds down on its SIGHUP
      if (err.code === 'EIO' && out.isTTY) return;
      const cause =
        err.code === 'ENOSPC'
          ? 'no space left on the device'
          : err.code === 'EDQUOT'
            ? 'disk quota exceeded'
            : err.message;
      process.stderr.write(`error: cannot write to standard output: ${cause}${err.code ? ` (${err.code})` : ''}\n`);
      process.exit(2);
    });
  }
  return out;
}

/** stdout's `_write` on a file: every byte, or the error (which the stream then emits). */
function writeEveryByte(chunk: Uint8Array, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
  try {
    writeAllSync(1, chunk);
  } catch (err) {
    return cb(err as Error);
  }
  cb();
}

function fileLike(fd: number): boolean {
  try {
    const st = fstatSync(fd);
    return st.isFile() || st.isBlockDevice() || st.isCharacterDevice();
  } catch {
    return false; // closed or odd: leave it to Node
  }
}
