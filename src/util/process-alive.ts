// Whether a process still runs, for files that name their owner's pid (temp files of atomic
// writes, the shared sandbox's record): a pid that is gone means the
// file was left by a crash. Pids are reused (after a reboot, or a busy machine's wrap-around), so
// where a file can also record when its process started, a live pid that started at another
// time is another process: the owner is gone (and must never be signalled).
import { readFileSync } from 'node:fs';

/**
 * True for this process, a running one, or one we may not signal (EPERM: it exists). A zombie
 * (killed, not yet reaped: the init of some containers reaps orphans late or never) is gone; so
 * is a process whose start time differs from `startedAt` (the pid was reused). A file that holds
 * no start time (written by an older assess) gives `writtenAtMs`, when it was written: a process
 * that started after that cannot have written it (pids wrap at 32,768 on many systems, so a lock
 * left by a killed run names a live stranger within minutes).
 */
export function processAlive(pid: number, startedAt?: string, writtenAtMs?: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  const stat = procStat(pid);
  if (stat === undefined) return true; // no /proc (macOS, Windows): the signal decides
  if (stat.state === 'Z') return false;
  if (startedAt !== undefined) return startedAt === stat.start;
  if (writtenAtMs === undefined) return true;
  const startedMs = startWallMs(stat.start);
  // btime is whole seconds and ticks are 10 ms: a margin of 2 s never takes a live owner's file
  return startedMs === undefined || startedMs <= writtenAtMs + 2000;
}

/**
 * A start in clock ticks since boot as wall-clock ms: boot time (/proc/stat "btime") plus ticks
 * at USER_HZ, which Linux fixes at 100 for user space on every architecture Node runs on.
 */
function startWallMs(startTicks: string): number | undefined {
  let btime: number;
  try {
    btime = Number(/^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'))?.[1]);
  } catch {
    return undefined;
  }
  const ticks = Number(startTicks);
  return Number.isFinite(btime) && btime > 0 && Number.isFinite(ticks) ? btime * 1000 + ticks * 10 : undefined;
}

/**
 * When the process started, as the kernel counts it (clock ticks since boot, /proc/PID/stat
 * field 22): with the pid, it names one process. Undefined without /proc.
 */
export function processStartedAt(pid: number): string | undefined {
  return procStat(pid)?.start;
}

function procStat(pid: number): { state: string; start: string } | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // "pid (comm) state ppid …": comm may hold spaces and parentheses, so split after the last ')'
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0] ?? '', start: fields[19] ?? '' };
}
