// In-memory process streams, so commands run in-process (runCli) without spawning.
import { PassThrough, Readable, Writable } from 'node:stream';
import type { ProcessLike } from '../../src/cli/context-factory.js';

export interface MemoryProcess extends ProcessLike {
  out(): string;
  err(): string;
}

export function memoryProcess(
  env: Record<string, string | undefined>,
  opts: { tty?: boolean; stdin?: string | Buffer } = {},
): MemoryProcess {
  let out = '';
  let err = '';
  const stdout = Object.assign(
    new Writable({
      write(chunk, _enc, cb) {
        out += chunk.toString();
        cb();
      },
    }),
    { isTTY: opts.tty ?? false, columns: 120 },
  );
  const stderr = Object.assign(
    new Writable({
      write(chunk, _enc, cb) {
        err += chunk.toString();
        cb();
      },
    }),
    { isTTY: opts.tty ?? false },
  );
  const stdin = opts.stdin !== undefined ? Readable.from([opts.stdin]) : new PassThrough().end();
  return { stdout, stderr, stdin: Object.assign(stdin, { isTTY: false }), env, out: () => out, err: () => err };
}
