// Local files assess keeps for itself: a state file the user names (`sandbox serve --state`) and
// the caches under the config directory. Both must be regular files: opening a FIFO waits for a
// writer (blocking the whole process, SIGINT and SIGTERM included) and a device such as /dev/zero
// reads for ever. A state file that is not one is refused (exit 2); a cache that is not a small
// regular file of this user's is ignored, as if there were none (it only saves a request).
import { closeSync, constants, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { UsageError } from '../errors.js';
import { kindOf } from './small-file.js';

/**
 * Exit 2 naming `label` unless `path` is a regular file (through symlinks) or does not exist yet.
 * Only stat(2), which never waits: the file is opened later by whoever keeps the state.
 */
export function refuseIrregularState(path: string, label: string): void {
  let st;
  try {
    st = statSync(path);
  } catch {
    return; // not there yet (created on the first save), or a directory that cannot be read: said when used
  }
  if (!st.isFile())
    throw new UsageError(
      `${label}: ${path} is ${kindOf(st)}, not a regular file`,
      `name a regular file (it is created if missing), e.g. ${label} ./sandbox.db`,
    );
}

/**
 * The text of a cache file of this user's, at most `maxBytes`; undefined for anything else: no
 * file, a symlink (O_NOFOLLOW), a FIFO or device (opened without blocking, never read), another
 * user's file, a larger one.
 */
export function readOwnCache(path: string, maxBytes: number, uid = process.getuid?.()): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch {
    return undefined;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || (uid !== undefined && st.uid !== uid) || st.size > maxBytes) return undefined;
    const buf = Buffer.alloc(maxBytes + 1);
    let n = 0;
    for (let r; n <= maxBytes && (r = readSync(fd, buf, n, buf.length - n, null)) > 0;) n += r;
    return n > maxBytes ? undefined : buf.subarray(0, n).toString('utf8');
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
