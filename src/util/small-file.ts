// Reading the small files that hold a secret or a setting (an API key, the listener's token, the
// config): a regular file up to a size cap; a FIFO or `<(…)` (where allowed) read in the
// background, so Ctrl-C still works while nobody writes to it; anything else — a device such as
// /dev/zero (read for ever), a directory, a socket — refused, naming the file (exit 2).
// A regular file that other users can read gets a warning, once per file, as ssh gives one.
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { CancelledError, UsageError } from '../errors.js';

/** The cap on a file given as input (a JSON body, settings, ids): far above any real one. */
export const INPUT_MAX_BYTES = 16 * 1024 * 1024;

export interface SmallFileOptions {
  /** Names the file in messages: '--api-key-file', 'config file'. */
  label: string;
  maxBytes: number;
  /** What to do instead, said when the file is refused (e.g. 'pipe the key with --key-stdin'). */
  instead?: string;
  /** What to do when the file is not there (e.g. how to make one). */
  missing?: string;
}

export interface SmallFile {
  text: string;
  /** Permission bits of a regular file (undefined for a FIFO). */
  mode?: number;
}

/** Reads a regular file (a FIFO too when `fifo` is given: Ctrl-C aborts `signal`, which ends the wait). */
export async function readSmallFile(
  path: string,
  o: SmallFileOptions & { fifo: { signal: AbortSignal } },
): Promise<SmallFile> {
  const got = openRegular(path, o, true);
  if (typeof got !== 'number') return got;
  return { text: await readFifo(got, path, o, o.fifo.signal) };
}

/**
 * A file the user names for input (a JSON body, a list of ids, an inbox), or `-` for standard
 * input: read whole, but never past the cap (`--data @/dev/zero` would otherwise fill memory).
 */
export async function readInputText(
  path: string,
  o: SmallFileOptions & { stdin: NodeJS.ReadableStream; signal: AbortSignal },
): Promise<string> {
  if (path !== '-') return (await readSmallFile(path, { ...o, fifo: { signal: o.signal } })).text;
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const c of o.stdin) {
    const chunk = Buffer.from(c as Buffer);
    total += chunk.length;
    if (total > o.maxBytes) throw tooBig('standard input', o);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Reads a regular file only (a FIFO is refused like a device); undefined when there is none. */
export function readSmallFileSync(path: string, o: SmallFileOptions): SmallFile | undefined {
  return openRegular(path, o, false);
}

/** The file's content, or (a FIFO, where allowed) its descriptor, open and not yet read. */
function openRegular(path: string, o: SmallFileOptions, fifoOk: false): SmallFile | undefined;
function openRegular(path: string, o: SmallFileOptions, fifoOk: true): SmallFile | number;
function openRegular(path: string, o: SmallFileOptions, fifoOk: boolean): SmallFile | number | undefined {
  let fd: number;
  try {
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait (blocking the whole process,
    // Ctrl-C included) until a writer comes; for a regular file it changes nothing.
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (!fifoOk && code === 'ENOENT') return undefined;
    throw new UsageError(
      `${o.label}: cannot read ${path} (${code ?? (err as Error).message})`,
      code === 'ENOENT' ? o.missing : undefined,
    );
  }
  let keep = false;
  try {
    const st = fstatSync(fd);
    if (st.isFIFO() && fifoOk) {
      keep = true; // read by readFifo, which closes it
      return fd;
    }
    if (!st.isFile()) throw refused(path, kindOf(st), o);
    if (st.size > o.maxBytes) throw tooBig(path, o);
    // read to the end even if the size changed since fstat, but never more than the cap
    const buf = Buffer.alloc(o.maxBytes + 1);
    let n = 0;
    for (;;) {
      const r = readSync(fd, buf, n, buf.length - n, null);
      if (r === 0) break;
      n += r;
      if (n > o.maxBytes) throw tooBig(path, o);
    }
    return { text: buf.subarray(0, n).toString('utf8'), mode: st.mode & 0o777 };
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(
      `${o.label}: cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
    );
  } finally {
    if (!keep) closeSync(fd);
  }
}

/**
 * The FIFO's descriptor, opened without blocking, read as a pipe on the event loop: nothing waits
 * in a thread, so Ctrl-C ends the wait at once, and a writer that came and went before the read
 * started still left its bytes (reopening the path would lose them).
 */
async function readFifo(fd: number, path: string, o: SmallFileOptions, signal: AbortSignal): Promise<string> {
  const { Socket } = process.getBuiltinModule('node:net');
  const pipe = new Socket({ fd, readable: true, writable: false });
  const stop = () => pipe.destroy();
  signal.addEventListener('abort', stop, { once: true });
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const c of pipe as AsyncIterable<Buffer>) {
      total += c.length;
      if (total > o.maxBytes) throw tooBig(path, o);
      chunks.push(c);
    }
  } catch (err) {
    if (!signal.aborted && err instanceof UsageError) throw err;
    if (!signal.aborted)
      throw new UsageError(
        `${o.label}: cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
      );
  } finally {
    signal.removeEventListener('abort', stop);
    pipe.destroy();
  }
  if (signal.aborted)
    throw new CancelledError(`interrupted while waiting for ${o.label} ${path} (a FIFO nobody wrote to)`);
  return Buffer.concat(chunks).toString('utf8');
}

/** What a file that is not a regular one is, for a refusal: `X is a FIFO, not a regular file`. */
export function kindOf(st: Stats): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  if (st.isFIFO()) return 'a FIFO';
  return 'not a regular file';
}

function refused(path: string, kind: string, o: SmallFileOptions): UsageError {
  return new UsageError(`${o.label}: ${path} is ${kind}, not a regular file`, o.instead);
}

function tooBig(path: string, o: SmallFileOptions): UsageError {
  const size = o.maxBytes >= 1 << 20 ? `${o.maxBytes / (1 << 20)} MiB` : `${o.maxBytes / 1024} KiB`;
  return new UsageError(`${o.label}: ${path} is larger than ${size}, too large to be what it should hold`, o.instead);
}

const warned = new Set<string>();

/**
 * A file holding a secret that group or others may read: said once per file and process, as ssh
 * does for a private key (the file is still used: refusing would break a working setup at once).
 */
export function warnIfReadableByOthers(
  path: string,
  mode: number | undefined,
  what: string,
  warn: (line: string) => void,
): void {
  if (mode === undefined || (mode & 0o077) === 0 || process.platform === 'win32' || warned.has(path)) return;
  warned.add(path);
  warn(`${path} holds ${what} and other users can read it (mode 0${mode.toString(8)}); restrict it: chmod 600 ${path}`);
}
