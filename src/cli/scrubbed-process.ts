// The run's standard output and error, scrubbed of its secrets (src/api/redact.ts): every text a
// command, the error line or --debug writes passes through Secrets.scrub on its way out. Bytes
// (a PDF on stdout) pass as they are. The streams are built on first use, as the process's are.
import type { Writable } from 'node:stream';
import type { Secrets } from '../api/redact.js';
import type { ProcessLike } from './context-factory.js';

export function scrubbedProcess(proc: ProcessLike, secrets: Secrets): ProcessLike {
  let stdout: ProcessLike['stdout'] | undefined;
  let stderr: ProcessLike['stderr'] | undefined;
  return {
    get stdout() {
      return (stdout ??= scrubbing(proc.stdout, secrets));
    },
    get stderr() {
      return (stderr ??= scrubbing(proc.stderr, secrets));
    },
    get stdin() {
      return proc.stdin;
    },
    env: proc.env,
    isTTY: proc.isTTY,
  };
}

type Write = (chunk: unknown, ...rest: unknown[]) => boolean;

/** The stream itself, but for write() and end(), which scrub a text before it is written. */
function scrubbing<W extends Writable>(stream: W, secrets: Secrets): W {
  const clean = (chunk: unknown) => (typeof chunk === 'string' ? secrets.scrub(chunk) : chunk);
  const write: Write = (chunk, ...rest) => (stream.write as Write)(clean(chunk), ...rest);
  const end = (chunk?: unknown, ...rest: unknown[]) =>
    (stream.end as (...a: unknown[]) => W)(...(chunk === undefined ? [] : [clean(chunk)]), ...rest);
  return new Proxy(stream, {
    get(target, prop) {
      if (prop === 'write') return write;
      if (prop === 'end') return end;
      const v: unknown = Reflect.get(target, prop, target);
      return typeof v === 'function' ? v.bind(target) : v;
    },
    set(target, prop, value) {
      return Reflect.set(target, prop, value, target);
    },
  });
}
