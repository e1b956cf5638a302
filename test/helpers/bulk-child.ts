// A bulk run is two processes: the one a user starts and its child Node that does the work
// (src/cli/bulk-child.ts). Helpers to find the child.
import { readFileSync } from 'node:fs';

/** The pids of `pid`'s children (Linux /proc). */
export function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return []; // gone
  }
}

/** The pid that holds a bulk run's locks: the started process's only child. */
export function workerPid(pid: number): number {
  const kids = childPids(pid);
  if (kids.length !== 1) throw new Error(`expected one child of ${pid}, found ${kids.length}`);
  return kids[0]!;
}

/** Its command line, NUL-separated arguments as a list. */
export function commandLine(pid: number): string[] {
  return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
}
