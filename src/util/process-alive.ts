// Whether a process still runs, for files that name their owner's pid (temp files of atomic
// writes, the sandbox's state lock): a pid that is gone means the file was left by a crash.

/** True for this process, a running one, or one we may not signal (EPERM: it exists). */
export function processAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
