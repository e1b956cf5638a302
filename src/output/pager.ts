// Long tables on a terminal go through a pager, as git and gh do: `$ASSESS_PAGER`, else `$PAGER`,
// else `less -FRX` (-F quits at once when it fits, -R keeps colour, -X leaves the text on screen).
// Never when stdout is not a terminal, with --no-pager, or with ASSESS_PAGER / PAGER set empty
// or to `cat`. A pager that cannot start, or ends with a failure status (PAGER=false), means the
// text is printed directly, with a warning; one the user quits early is no error (its closed pipe
// is ignored) and never changes the exit code.
import type { Writable } from 'node:stream';
import type { Context, Env } from '../context.js';

const DEFAULT_PAGER = 'less -FRX';
// A command line we can start without a shell: no quotes, variables, redirections or pipes.
const SIMPLE = /^[\w./+=:@%, -]+$/;

/** The pager command to use, or undefined for none. */
export function pagerCommand(env: Env): string | undefined {
  const chosen = env.ASSESS_PAGER ?? (env.PAGER === undefined ? DEFAULT_PAGER : env.PAGER);
  const cmd = chosen.trim();
  return cmd === '' || cmd === 'cat' ? undefined : cmd;
}

/** Writes `text` to stdout, through the pager when it is longer than the terminal. */
export async function writePaged(ctx: Context, text: string): Promise<void> {
  const { io, env, globals } = ctx;
  const lines = text.split('\n').length - 1;
  // The pager needs the real terminal as its stdout: a stream without a descriptor (tests'
  // in-memory streams) is written directly.
  const fd = (io.stdout as { fd?: unknown }).fd;
  const cmd =
    globals.pager && io.stdoutIsTTY && typeof fd === 'number' && lines >= io.rows ? pagerCommand(env) : undefined;
  if (!cmd) {
    io.stdout.write(text);
    return;
  }
  // While the pager owns the terminal, Ctrl-C is the pager's (less stops a search with it), as
  // with git: our own handlers (wind down, then exit 130 on a second press) would leave the
  // pager behind on the terminal. The command's work is done by now; they are back afterwards.
  const held = process.rawListeners('SIGINT') as Array<(...args: unknown[]) => void>; // raw: a once-listener stays once
  const ignore = () => undefined;
  process.removeAllListeners('SIGINT');
  process.on('SIGINT', ignore);
  try {
    const ran = await runPager(cmd, text, io.stdout, env);
    if (typeof ran === 'number')
      ctx.warn(
        `the pager '${cmd}' failed (exit ${ran}); the output follows ` +
          `without it (--no-pager, or ASSESS_PAGER=cat, to stop using it)`,
      );
    if (ran !== true) io.stdout.write(text);
  } finally {
    process.off('SIGINT', ignore);
    for (const h of held) process.on('SIGINT', h);
  }
}

/**
 * True when the pager ran; false when it could not be started; its status when it failed (a
 * quit pager exits 0: less on q; a signal is the user's too).
 */
function runPager(cmd: string, text: string, stdout: Writable, env: Env): Promise<boolean | number> {
  return new Promise((resolve) => {
    const [file, ...args] = SIMPLE.test(cmd) ? cmd.split(/\s+/) : ['/bin/sh', '-c', cmd];
    let child;
    try {
      // less reads LESS: give it the flags git gives it when the user has set none.
      // node:child_process is loaded here, on the first page, not by every command that prints (~2.5 ms)
      const { spawn } = process.getBuiltinModule('node:child_process');
      child = spawn(file, args, {
        stdio: ['pipe', stdout, 'inherit'],
        env: { LESS: 'FRX', ...env } as NodeJS.ProcessEnv,
      });
    } catch {
      return resolve(false);
    }
    let started = true;
    child.on('error', () => {
      started = false; // ENOENT: no such pager
      resolve(false);
    });
    child.stdin.on('error', () => undefined); // EPIPE: the user quit before reading everything
    // 127: the shell found no such command
    child.on('close', (code) =>
      resolve(!started || code === 127 ? false : typeof code === 'number' && code !== 0 ? code : true),
    );
    child.stdin.end(text);
  });
}
