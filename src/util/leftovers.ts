// What a killed process leaves behind: kill -9 between creating a temp file and renaming or
// removing it (a PDF download's `.part`, a config write, a sandbox start's claim, a CSV spool).
// Those names carry their writer's pid, so the next run that writes in the same place removes
// the ones of this user whose writer is gone (src/util/process-alive.ts tells a reused pid).
import { lstatSync, readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { processAlive } from './process-alive.js';

const swept = new Set<string>();

/**
 * Removes the entries of `dir` whose name matches `pattern` (its `pid` group naming the writer)
 * when they are this user's and their writer no longer runs; returns how many. A directory
 * (a spool) goes with what is in it; a symlink is removed, never followed.
 */
export function removeLeftovers(dir: string, pattern: RegExp): number {
  swept.add(`${resolve(dir)}\0${pattern.source}`);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  const uid = process.getuid?.();
  let n = 0;
  for (const name of names) {
    const pid = pattern.exec(name)?.groups?.pid;
    if (pid === undefined) continue;
    const path = join(dir, name);
    try {
      const st = lstatSync(path);
      if ((uid !== undefined && st.uid !== uid) || processAlive(Number(pid), undefined, st.mtimeMs)) continue;
      rmSync(path, { recursive: st.isDirectory(), force: true });
      n++;
    } catch {
      // gone meanwhile, or not ours to remove: left as it is
    }
  }
  return n;
}

/** removeLeftovers, the first time this process writes in `dir` (a loop of writes sweeps once). */
export function removeLeftoversOnce(dir: string, pattern: RegExp): void {
  if (!swept.has(`${resolve(dir)}\0${pattern.source}`)) removeLeftovers(dir, pattern);
}
