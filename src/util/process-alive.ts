// Whether a process still runs, for files that name their owner's pid (temp files of atomic
// writes, the sandbox's state lock, the shared sandbox's record): a pid that is gone means the
// file was left by a crash.
import { readFileSync } from 'node:fs';

/**
 * True for this process, a running one, or one we may not signal (EPERM: it exists). A zombie
 * (killed, not yet reaped: the init of some containers reaps orphans late or never) is gone.
 */
export function processAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    return !/^\d+ \(.*\) Z/s.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true; // no /proc (macOS, Windows): the signal decides
  }
}
