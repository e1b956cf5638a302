// A local file-system failure in words: the place, the cause and what to do (exit 2, GUIDE §2:
// "bad file"). Never "a bug" (exit 1), never the network (exit 6), never retried.
import { UsageError } from '../errors.js';

const CAUSES: Record<string, string> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOENT: 'no such file or directory',
  ENOTDIR: 'a part of the path is not a directory',
  EISDIR: 'it is a directory',
  EEXIST: 'it already exists',
  EMFILE: 'too many open files',
  ENFILE: 'too many open files in the system',
  EFBIG: 'file too large',
  EIO: 'input/output error',
  ENAMETOOLONG: 'the name is too long',
  ELOOP: 'too many symbolic links',
  ENXIO: 'no such device (or a FIFO nobody reads)',
  ETXTBSY: 'the file is busy',
  ESHORTWRITE: 'the system took only part of the bytes (a full disk?)',
};

const DEFAULT_HINT = 'choose another place, or free space / fix the permissions there';

/** The cause of an errno code in words ("no space left on the device"), or undefined. */
export function causeOf(code: string | undefined): string | undefined {
  return code ? CAUSES[code] : undefined;
}

/**
 * A file-system failure as a usage error naming the place and the cause (exit 2); undefined when
 * `err` is not one. `verb`: what could not be done with it (write, read, create).
 */
export function fileProblem(
  err: unknown,
  what: string,
  path: string,
  hint?: string,
  verb = 'write',
): UsageError | undefined {
  if (err instanceof UsageError) return err;
  const gone = cwdGone(err);
  if (gone) return gone;
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (!code || !(code in CAUSES)) return undefined;
  return new UsageError(
    `cannot ${verb} ${what ? `${what} ` : ''}${path}: ${CAUSES[code]} (${code})`,
    hint ?? DEFAULT_HINT,
  );
}

/** fileProblem, or the error itself when it is not a file-system failure. */
export function asFileError(err: unknown, what: string, path: string, hint?: string, verb?: string): unknown {
  return fileProblem(err, what, path, hint, verb) ?? err;
}

/**
 * The last resort of the exit-code map: a file-system error that reached it with its path (a
 * mkdir, open or rename of Node's) is still the place and the cause, exit 2, not a bug.
 */
export function strayFileProblem(err: unknown): UsageError | undefined {
  const gone = cwdGone(err);
  if (gone) return gone;
  const e = err as NodeJS.ErrnoException | undefined;
  if (!(e instanceof Error) || typeof e.path !== 'string' || !e.syscall) return undefined;
  const verb = /^(read|open|stat|lstat|scandir)$/.test(e.syscall) ? 'use' : e.syscall === 'mkdir' ? 'create' : 'write';
  return fileProblem(err, '', e.path, undefined, verb);
}

/**
 * process.cwd() (and path.resolve of a relative path) fail once the working directory was
 * removed: not a file of the command's but the shell's place, said as such (exit 2).
 */
function cwdGone(err: unknown): UsageError | undefined {
  const e = err as NodeJS.ErrnoException | undefined;
  if (!(e instanceof Error) || e.syscall !== 'uv_cwd') return undefined;
  return new UsageError(
    'the current directory no longer exists (it was removed or moved after the shell went there)',
    'cd somewhere that exists, then run the command again',
  );
}
