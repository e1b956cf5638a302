// Long-running commands for e2e tests (`callbacks listen`, `sandbox serve`): spawn the BUILT
// binary, collect stdout lines and stderr as they come, wait for conditions with a bounded
// deadline, and stop the process (SIGINT by default) at the end.
import { spawn, type ChildProcess } from 'node:child_process';
import { baseEnv, BIN, ROOT, tempDir, type RunResult, NODE } from './cli.js';
import { waitFor } from './wait.js';

export interface Spawned {
  child: ChildProcess;
  /** Complete stdout lines so far. */
  lines(): string[];
  stderr(): string;
  /** Resolves with the first stdout line (rejects if the process ends first or after timeoutMs). */
  firstLine(timeoutMs?: number): Promise<string>;
  /** Waits until at least n stdout lines arrived; returns them all. */
  waitForLines(n: number, timeoutMs?: number): Promise<string[]>;
  /** Resolves when the process ends, with everything it printed. */
  done: Promise<RunResult>;
  /** Sends the signal (if still running) and resolves with the exit. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function spawnAssess(
  args: string[],
  opts: { env?: Record<string, string | undefined>; configDir?: string; cwd?: string; stdin?: string } = {},
): Spawned {
  const own = opts.configDir === undefined ? tempDir() : undefined; // removed when the child ends
  const env: Record<string, string | undefined> = { ...baseEnv(opts.configDir ?? own!.dir), ...opts.env };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete env[k];
  const child = spawn(NODE, [BIN, ...args], {
    env: env as NodeJS.ProcessEnv,
    cwd: opts.cwd ?? ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin!.on('error', () => undefined); // EPIPE: the child exited before reading its input
  child.stdin!.end(opts.stdin ?? '');
  // A safety net, not an assertion: a hung child must not hang the suite.
  const safety = setTimeout(() => child.kill('SIGKILL'), 300_000);
  let out = '';
  let err = '';
  let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => {
      clearTimeout(safety);
      own?.cleanup();
      resolve((exit = { code, signal }));
    }),
  );
  child.stdout!.setEncoding('utf8').on('data', (d) => (out += d));
  child.stderr!.setEncoding('utf8').on('data', (d) => (err += d));
  const lines = () => out.split('\n').slice(0, -1);
  const waitForLines = async (n: number, timeoutMs = 60_000) => {
    await waitFor(() => lines().length >= n || exit !== null, {
      timeoutMs,
      what: `${n} stdout line(s) from assess ${args.join(' ')}; stderr: ${err}`,
    });
    if (lines().length < n)
      throw new Error(
        `assess ${args.join(' ')} exited (${JSON.stringify(exit)}) after ${lines().length} line(s); stderr: ${err}`,
      );
    return lines();
  };
  return {
    child,
    done: exited.then(({ code, signal }) => ({ code, signal, stdout: out, stderr: err })),
    lines,
    stderr: () => err,
    firstLine: async (timeoutMs) => (await waitForLines(1, timeoutMs))[0]!,
    waitForLines,
    stop: async (signal = 'SIGINT') => {
      if (exit) return exit;
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
      const r = await exited;
      clearTimeout(timer);
      return r;
    },
  };
}

/** What a run writes on stderr when it takes the first Ctrl-C (src/cli/program.ts). */
export const FIRST_CTRL_C = 'interrupted: finishing what is under way; Ctrl-C again stops now';

/**
 * Ctrl-C twice, as a user presses it: the second once the run has answered the first (its line
 * on stderr) and 700 ms after that, past the 500 ms in which a second signal is taken for the
 * first's echo — by the run's own clock too, as it wrote the line after taking the first, however
 * slow this machine is. Resolves with the exit.
 */
export async function ctrlCTwice(p: Spawned): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  p.child.kill('SIGINT');
  await waitFor(() => p.stderr().includes(FIRST_CTRL_C) || p.child.exitCode !== null || p.child.signalCode !== null, {
    what: 'the answer to the first Ctrl-C',
  });
  await new Promise((r) => setTimeout(r, 700));
  return p.stop('SIGINT');
}
