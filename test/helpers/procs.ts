// Processes a test started, found through Linux's /proc.
import { readFileSync } from 'node:fs';

/** The pids of `pid`'s children. */
export function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return []; // gone
  }
}
