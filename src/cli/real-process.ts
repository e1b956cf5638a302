// The process a real run talks to (tests pass doubles of the same shape).
//
// Nothing here builds a stream before it is used (each can cost milliseconds, see below).
//
// Standard error on a pipe or a socket: Node builds process.stderr there as a net.Socket, which
// loads node:net — ~3 ms of a command whose only output is an error or a warning (usage errors,
// `auth status` without a key, in a script that captures stderr). On Linux Node writes to a
// pipe synchronously anyway, so assess writes those bytes itself with fs.writeSync(2): same
// order, same synchronicity. If a write would block (a pipe left non-blocking by someone else,
// and full: EAGAIN) the rest goes to process.stderr, and so does everything after it, in order.
// A file or a device that is not a terminal (`2> log`, `2> /dev/full`) is written the same way:
// Node's stream there ignores short writes, and its ENOSPC would be an uncaught 'error' event,
// exit 1 in place of the run's own code. A message that cannot be written is dropped: there is
// nowhere to say so, and the exit code still tells how the run ended. A terminal keeps
// process.stderr (prompts, colours and columns need the real stream), with its errors ignored
// for the same reason (a terminal that hung up: EIO).
import { fstatSync, statSync, writeSync } from 'node:fs';
import type { ProcessLike } from './context-factory.js';
import { guardedStdout } from './stdout-guard.js';

type Stderr = ProcessLike['stderr'];

export function realProcess(): ProcessLike {
  let stderr: Stderr | undefined;
  return {
    get stdout() {
      return guardedStdout(); // its error handler on first use (src/cli/stdout-guard.ts)
    },
    get stdin() {
      return process.stdin;
    },
    get stderr() {
      return (stderr ??= isTTY(2) ? quiet(process.stderr) : fdWriter(2, () => quiet(process.stderr)));
    },
    env: process.env,
    isTTY,
  };
}

/**
 * The question a stream's own isTTY answers, asked without building the stream. node:tty (which
 * loads node:net) only for a character device other than /dev/null: a pipe, a file or
 * /dev/null (where scripts send what they do not want) is never a terminal.
 */
function isTTY(fd: 0 | 1 | 2): boolean {
  try {
    const st = fstatSync(fd);
    if (!st.isCharacterDevice() || st.rdev === statSync('/dev/null').rdev) return false;
  } catch {
    // no such descriptor: as below; no /dev/null (not Unix): ask node:tty
  }
  return process.getBuiltinModule('node:tty').isatty(fd);
}

const QUIET = Symbol.for('assess.stderr-quiet');

/** process.stderr with its write errors ignored (once per process: the entry and the program share it). */
function quiet(stream: NodeJS.WriteStream & { [QUIET]?: true }): Stderr {
  if (!stream[QUIET]) {
    stream[QUIET] = true;
    stream.on('error', () => undefined);
  }
  return stream;
}

/**
 * A stand-in for a Writable that only writes (what every user of a non-terminal stderr does:
 * commander, messages, the debug log, relayed output); `fallback` takes over for good after EAGAIN.
 */
export function fdWriter(fd: number, fallback: () => Stderr, write: typeof writeSync = writeSync): Stderr {
  let handedOver: Stderr | undefined;
  const sink = {
    isTTY: false,
    write(
      chunk: string | Uint8Array,
      encoding?: BufferEncoding | ((err?: Error | null) => void),
      cb?: (err?: Error | null) => void,
    ): boolean {
      const done = typeof encoding === 'function' ? encoding : cb;
      if (handedOver) return handedOver.write(chunk, done);
      const bytes =
        typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? encoding : 'utf8') : chunk;
      let off = 0;
      try {
        while (off < bytes.length) {
          const n = write(fd, bytes, off, bytes.length - off);
          if (!(n > 0)) break; // took nothing and said nothing: as a failed write, dropped
          off += n;
        }
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') {
          // EPIPE, ENOSPC and the like: nobody can read it, and there is nowhere to say so
          if (done) queueMicrotask(() => done(null));
          return true;
        }
        handedOver = fallback();
        return handedOver.write(bytes.subarray(off), done);
      }
      if (done) queueMicrotask(() => done(null));
      return true;
    },
  };
  return sink as unknown as Stderr;
}
