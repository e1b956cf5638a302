// A bulk run (invite --from-csv, report export, callbacks process) runs in a child Node started
// with V8's `--optimize-for-size`, a start-time flag (issue 30). Why: a long run allocates ~44 KB
// of garbage a row and V8's default sizing grows the heap with the run's length even though the
// live set stays at ~15 MB; with the flag peak RSS stays flat (bench/README.md, "Bulk").
// The parent is only dist/main.cjs (it never loads the program): it forwards SIGINT/SIGTERM/SIGHUP (a
// child that does not stop at the second is killed), waits, and ends as the child ended (same exit
// code, or the same signal). The child holds the read end
// of a pipe from the parent; when the parent dies (kill -9), the child kills itself the same way,
// so killing the process a user started still stops the run at once.
// The guess below only decides where the run happens, never what it does: a wrong guess costs a
// process start or the flag. ASSESS_BULK_CHILD=off runs every command in one process.
// node:child_process, node:os and node:net are imported when used: most command lines never need them.

import { writeSync } from 'node:fs';

const VAR = 'ASSESS_BULK_CHILD';
const LINK_FD = 3;
const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
/** The exit code of a run stopped by each, as src/cli/exit-codes.ts has them (EXIT.interrupted…). */
const STOPPED: Record<(typeof FORWARDED)[number], number> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };
/** A signal this soon after the first is its echo (the terminal sends Ctrl-C to both processes), as in program.ts. */
const ECHO_MS = 500;
/** How long a child has to stop by itself after the second signal before it is killed. */
const STOP_GRACE_MS = 1000;
const KILLED_NOTE =
  'interrupted again: the run did not stop by itself, killed it; finished items are in the journal — run the same command again to resume\n';

/** Whether `argv` names a bulk run. */
export function looksBulk(argv: readonly string[]): boolean {
  if (argv.includes('--help') || argv.includes('-h')) return false;
  const words = argv.filter((a) => !a.startsWith('-'));
  const pair = (noun: string, verb: string) => words.some((w, i) => w === noun && words[i + 1] === verb);
  // `--csv FILE` is the old spelling of `--from-csv FILE`; `--csv` alone is the output format
  const csvInput = argv.some(
    (a, i) =>
      a.startsWith('--from-csv') ||
      a.startsWith('--csv=') ||
      (a === '--csv' && argv[i + 1] !== undefined && !argv[i + 1]!.startsWith('-')),
  );
  return (words.includes('invite') && csvInput) || pair('report', 'export') || pair('callbacks', 'process');
}

/**
 * Runs this command line in a child Node and returns true, or returns false when it runs here:
 * not a bulk run, already the child, turned off, or no child could be started.
 */
export async function runInBulkChild(argv: readonly string[], inExecutable: boolean): Promise<boolean> {
  const setting = process.env[VAR];
  delete process.env[VAR]; // a command this run starts decides for itself
  if (setting === `fd:${LINK_FD}`) {
    await watchParent();
    return false;
  }
  // the standalone executable reads every argument as the program's: it takes no Node flags
  if (setting === 'off' || inExecutable || !looksBulk(argv) || process.argv[1] === undefined) return false;
  const [{ spawn }, { constants }] = await Promise.all([import('node:child_process'), import('node:os')]);
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [...process.execArgv, '--optimize-for-size', process.argv[1]!, ...process.argv.slice(2)],
      {
        stdio: ['inherit', 'inherit', 'inherit', 'pipe'],
        env: { ...process.env, [VAR]: `fd:${LINK_FD}` },
      },
    );
    // The child takes a second signal (500 ms after the first: not the terminal's echo) as "stop
    // now", but only when its event loop runs: one stuck in synchronous code never sees it. So
    // the second signal also arms a SIGKILL, and the run ends as an interrupted one would.
    let firstAt = 0;
    let stoppedBy: number | undefined;
    let killer: NodeJS.Timeout | undefined;
    let killed = false;
    const forward = (signal: (typeof FORWARDED)[number]) => {
      if (signal !== 'SIGINT') stoppedBy ??= STOPPED[signal];
      child.kill(signal);
      if (!firstAt) firstAt = Date.now();
      else if (!killer && Date.now() - firstAt > ECHO_MS)
        killer = setTimeout(() => {
          killed = child.kill('SIGKILL');
          if (killed) sayOnStderr(KILLED_NOTE);
        }, STOP_GRACE_MS);
    };
    child.once('error', () => resolve(false)); // not started (e.g. no process left): run here
    child.once('spawn', () => {
      for (const s of FORWARDED) process.on(s, forward);
      resolve(true);
    });
    child.once('exit', (code, signal) => {
      for (const s of FORWARDED) process.off(s, forward);
      clearTimeout(killer);
      // killed here on a second signal: the exit code of an interrupted (terminated, hung up)
      // run, as exit-codes.ts has them (this small entry does not load it)
      if (killed && signal === 'SIGKILL') process.exitCode = stoppedBy ?? STOPPED.SIGINT;
      // end as it ended, so a shell sees the same; should the signal not end this process (one
      // Node ignores), the exit code a shell gives a killed process, never 0
      else if (signal) {
        process.exitCode = 128 + (constants.signals[signal] ?? 0);
        process.kill(process.pid, signal);
      } else process.exitCode = code ?? 1;
    });
  });
}

/** In the child: the parent's end of the pipe closes only when the parent is gone. */
async function watchParent(): Promise<void> {
  const { Socket } = await import('node:net');
  let link: InstanceType<typeof Socket>;
  try {
    link = new Socket({ fd: LINK_FD, readable: true, writable: false });
  } catch {
    return; // no such pipe (started by hand with the variable): nothing to watch
  }
  link.on('error', () => undefined);
  link.on('close', () => process.kill(process.pid, 'SIGKILL'));
  link.resume();
  link.unref();
}

/** One line on stderr, written here: a stderr that fails (a full disk) must not turn the exit code into 1. */
function sayOnStderr(line: string): void {
  try {
    writeSync(2, line);
  } catch {
    // nowhere to say it; the exit code still tells how the run ended
  }
}
