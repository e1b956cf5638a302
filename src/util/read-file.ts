// Small files assess reads whole (the config, keys, secrets): a regular file only, and only up to
// a cap. Opened without blocking, so a FIFO given by mistake is refused at once instead of
// waiting for a writer (past Ctrl-C); /dev/zero or a huge file is refused before it is read.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

/** An error like the system's, with a code file-errors.ts puts in words. */
function refusal(code: 'ESPECIAL' | 'ETOOBIG', path: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${message}: ${path}`), { code, path, syscall: 'read' });
}

/** The file's text; throws the system's error, or ESPECIAL (not a regular file) / ETOOBIG (over `max` bytes). */
export function readRegularFile(path: string, max: number): string {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw refusal('ESPECIAL', path, 'not a regular file');
    if (st.size > max) throw refusal('ETOOBIG', path, `larger than ${max} bytes`);
    const buf = Buffer.alloc(Math.min(st.size, max) + 1);
    let n = 0;
    for (;;) {
      const got = readSync(fd, buf, n, buf.length - n, null);
      if (got === 0) break;
      n += got;
      if (n > max) throw refusal('ETOOBIG', path, `larger than ${max} bytes`); // grew while read
    }
    return buf.toString('utf8', 0, n);
  } finally {
    closeSync(fd);
  }
}
