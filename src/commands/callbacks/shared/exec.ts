// `callbacks listen --exec`: runs the command through the shell per notification, the body on
// stdin and ASSESS_EVENT_* variables in its environment, its output on our stderr. The command
// runs in a process group of its own, so that stopping it reaches everything it started (a
// pipeline, a script's children), not only the shell: those were left running, reparented to
// init, when the listener stopped.
import type { Context } from '../../../context.js';
import type { Received } from './receiver.js';

/** After SIGTERM to a stopped command's process group, how long it has before SIGKILL. */
export const KILL_GRACE_MS = 200;

/** Secrets the CLI reads from its environment: an --exec command runs without them. */
const SECRET_ENV = ['ASSESS_API_KEY', 'ASSESS_WEBHOOK_SECRET', 'ASSESS_LISTEN_TOKEN'];

/** The listener's environment for an --exec command, without the API key and the secrets. */
export function childEnv(env: Record<string, string | undefined>): Record<string, string | undefined> {
  const out = { ...env };
  for (const k of SECRET_ENV) delete out[k];
  return out;
}

/**
 * Runs the --exec command for one notification; resolves when it ended. `stop` (Ctrl-C, after
 * the grace) ends its whole process group: SIGTERM, then SIGKILL after KILL_GRACE_MS if any of it
 * is still there; the promise resolves once the group is gone or was killed.
 */
export async function runExec(ctx: Context, command: string, n: Received, stop: AbortSignal, label: string): Promise<void> {
  const { eventEnv } = await import('./notification.js');
  const { spawn } = process.getBuiltinModule('node:child_process');
  // a group of its own (POSIX): signalled as one; not unref'd, the listener still waits for it
  const ownGroup = process.platform !== 'win32';
  await new Promise<void>((resolve) => {
    const child = spawn(command, {
      shell: true,
      detached: ownGroup,
      env: { ...childEnv(ctx.env), ...eventEnv(n.body, n.version), ASSESS_EVENT_JSON: n.raw.toString('utf8') } as NodeJS.ProcessEnv,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const signalGroup = (signal: NodeJS.Signals | 0): boolean => {
      if (child.pid === undefined) return false;
      try {
        if (ownGroup) process.kill(-child.pid, signal);
        else if (signal !== 0) child.kill(signal);
        else return child.exitCode === null && child.signalCode === null;
        return true;
      } catch {
        return false; // ESRCH: nothing of the group is left
      }
    };
    // The listener ending at once (a second Ctrl-C exits the process) must not leave the command behind.
    const onExit = () => void signalGroup('SIGKILL');
    process.on('exit', onExit);
    let settled = false;
    const finish = () => {
      if (settled) return;
      settled = true;
      process.off('exit', onExit);
      stop.removeEventListener('abort', onStop);
      resolve();
    };
    child.stdout.on('data', (d) => ctx.io.stderr.write(d)); // stdout of ours carries notifications only
    child.stderr.on('data', (d) => ctx.io.stderr.write(d));
    child.stdin.on('error', () => undefined); // a command that does not read stdin is fine
    child.stdin.end(n.raw);
    child.on('error', (err) => {
      ctx.warn(`--exec could not start for ${label}: ${err.message}`);
      finish();
    });
    // Ctrl-C: the command's group is asked to end (SIGTERM), then killed (SIGKILL) if still there.
    const onStop = () => {
      child.stdout.destroy();
      child.stderr.destroy();
      signalGroup('SIGTERM');
      void gone(() => !signalGroup(0), KILL_GRACE_MS).then((ended) => {
        if (!ended) signalGroup('SIGKILL');
        finish();
      });
    };
    stop.addEventListener('abort', onStop, { once: true });
    child.on('close', (code, signal) => {
      if (stop.aborted) return; // onStop ends it
      if (code !== 0) ctx.warn(`--exec for ${label} ${signal ? `was killed by ${signal}` : `exited with code ${code}`}`);
      finish();
    });
  });
}

/** Polls `check` until it is true (→ true) or `ms` passed (→ false). */
async function gone(check: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}
