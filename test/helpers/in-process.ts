// Runs a command line in this process (runCli with in-memory streams) and answers like runAssess:
// the same program, client, real HTTP and error mapping as the built binary, without starting
// node per case. For command behaviour; what needs a real process (signals, kill -9, EPIPE, the
// TTY, the binary's entry point) stays in test/e2e with runAssess.
import { runCli } from '../../src/cli/program.js';
import { baseEnv, leakedSecret, tempDir, type RunOptions, type RunResult } from './cli.js';
import { memoryProcess } from './memory-io.js';

let busy: Promise<unknown> = Promise.resolve();

export function runInProcess(args: string[], opts: RunOptions = {}): Promise<RunResult> {
  // One at a time: a run may change the working directory, which is the whole process's.
  const run = busy.then(() => runNow(args, opts));
  busy = run.catch(() => undefined);
  return run;
}

async function runNow(args: string[], opts: RunOptions): Promise<RunResult> {
  const own = opts.configDir === undefined ? tempDir() : undefined;
  const configDir = opts.configDir ?? own!.dir;
  const env: Record<string, string | undefined> = { ...baseEnv(configDir), ...opts.env };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete env[k];
  const p = memoryProcess(env, { stdin: opts.stdin, tty: opts.tty });
  const back = process.cwd();
  if (opts.cwd) process.chdir(opts.cwd);
  let code: number;
  try {
    code = await runCli(args, p);
  } finally {
    process.chdir(back);
    own?.cleanup();
  }
  const leak = leakedSecret(args, env as Record<string, string>, p.out() + p.err());
  if (leak) throw new Error(`the API key (${leak.slice(0, 6)}…) appeared in the output of: assess ${args.join(' ')}`);
  return { code, signal: null, stdout: p.out(), stderr: p.err() };
}
