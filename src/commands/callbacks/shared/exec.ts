// `callbacks listen --exec`: runs the command through the shell per notification, the body on
// stdin and ASSESS_EVENT_* variables in its environment, its output on our stderr. The command
// runs in a process group of its own, so that stopping it reaches everything it started (a
// pipeline, a script's children), not only the shell: those were left running, reparented to
// init, when the listener stopped. A value an environment cannot hold (a NUL, more than an
// environment variable may carry) is made safe or left out, with a warning: the body is on stdin
// whatever happens; a command that still cannot start is warned about and counted, never dropped
// silently.
import type { ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import type { Context } from '../../../context.js';
import type { Received } from './receiver.js';

/** After SIGTERM to a stopped command's process group, how long it has before SIGKILL. */
export const KILL_GRACE_MS = 200;

/**
 * An ASSESS_EVENT_* value at most, in bytes: Linux refuses a single variable over 128 KiB (spawn
 * E2BIG), Windows one over 32,767 characters, and the whole environment has a limit too. A
 * notification's values are far smaller; a longer one is left out (the body is on stdin).
 */
export const MAX_ENV_VALUE_BYTES = 32 * 1024;

/**
 * The ASSESS_EVENT_* variables made safe for an environment: NULs (which no environment holds)
 * removed, a value over MAX_ENV_VALUE_BYTES left out and named in ASSESS_EVENT_OMITTED. `notes`
 * says what was changed, for a warning.
 */
export function safeEventEnv(vars: Record<string, string>): { env: Record<string, string>; notes: string[] } {
  const env: Record<string, string> = {};
  const stripped: string[] = [];
  const omitted: string[] = [];
  for (const [name, raw] of Object.entries(vars)) {
    const value = raw.includes('\0') ? raw.replaceAll('\0', '') : raw;
    if (value !== raw) stripped.push(name);
    if (Buffer.byteLength(value) > MAX_ENV_VALUE_BYTES) omitted.push(name);
    else env[name] = value;
  }
  const notes: string[] = [];
  if (stripped.length)
    notes.push(`NUL characters removed from ${stripped.join(', ')} (an environment variable cannot hold them)`);
  if (omitted.length) {
    env.ASSESS_EVENT_OMITTED = omitted.join(',');
    notes.push(
      `${omitted.join(', ')} left out of its environment (over ${MAX_ENV_VALUE_BYTES / 1024} KB; ` +
        `ASSESS_EVENT_OMITTED names them, the body is on stdin)`,
    );
  }
  return { env, notes };
}

/** Secrets the CLI reads from its environment: an --exec command runs without them. */
const SECRET_ENV = ['ASSESS_API_KEY', 'ASSESS_WEBHOOK_SECRET', 'ASSESS_LISTEN_TOKEN'];

/** The listener's environment for an --exec command, without the API key and the secrets. */
export function childEnv(env: Record<string, string | undefined>): Record<string, string | undefined> {
  const out = { ...env };
  for (const k of SECRET_ENV) delete out[k];
  return out;
}

/**
 * Runs the --exec command for one notification; resolves when it ended, rejects when it could not
 * start (the queue warns and counts it). `stop` (Ctrl-C, after the grace) ends its whole process
 * group: SIGTERM, then SIGKILL after KILL_GRACE_MS if any of it is still there; the promise
 * resolves once the group is gone or was killed.
 */
export async function runExec(
  ctx: Context,
  command: string,
  n: Received,
  stop: AbortSignal,
  label: string,
): Promise<void> {
  const { eventEnv } = await import('./notification.js');
  const { spawn } = process.getBuiltinModule('node:child_process');
  const event = safeEventEnv({ ...eventEnv(n.body, n.version), ASSESS_EVENT_JSON: n.raw.toString('utf8') });
  if (event.notes.length) ctx.warn(`--exec for ${label}: ${event.notes.join('; ')}`);
  // a group of its own (POSIX): signalled as one; not unref'd, the listener still waits for it
  const ownGroup = process.platform !== 'win32';
  await new Promise<void>((resolve, reject) => {
    let child;
    try {
      child = spawn(command, {
        shell: true,
        detached: ownGroup,
        env: { ...childEnv(ctx.env), ...event.env } as NodeJS.ProcessEnv,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
    } catch (err) {
      // thrown, not emitted: a value the environment refuses (E2BIG, ERR_INVALID_ARG_VALUE)
      return reject(new Error(`could not start: ${(err as Error).message}`));
    }
    watch(ctx, child, { raw: n.raw, stop, label, ownGroup }, (err) => (err ? reject(err) : resolve()));
  });
}

type Child = ChildProcessByStdio<Writable, Readable, Readable>;

/**
 * Feeds the started command its body, passes its output to our stderr and ends its group on
 * `stop`; `done` is called once: when it closed, was stopped, or turned out not to have started.
 */
function watch(
  ctx: Context,
  child: Child,
  o: { raw: Buffer; stop: AbortSignal; label: string; ownGroup: boolean },
  done: (err?: Error) => void,
): void {
  const signalGroup = groupSignaller(child, o.ownGroup);
  // The listener ending at once (a second Ctrl-C exits the process) must not leave the command behind.
  const onExit = () => void signalGroup('SIGKILL');
  process.on('exit', onExit);
  let settled = false;
  const finish = (err?: Error) => {
    if (settled) return;
    settled = true;
    process.off('exit', onExit);
    o.stop.removeEventListener('abort', onStop);
    done(err);
  };
  child.stdout.on('data', (d) => ctx.io.stderr.write(d)); // stdout of ours carries notifications only
  child.stderr.on('data', (d) => ctx.io.stderr.write(d));
  child.stdin.on('error', () => undefined); // a command that does not read stdin is fine
  child.stdin.end(o.raw);
  // no shell (ENOENT), no process to spare (EAGAIN)…: it did not start
  child.on('error', (err) => {
    if (child.pid === undefined) finish(new Error(`could not start: ${err.message}`));
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
  o.stop.addEventListener('abort', onStop, { once: true });
  child.on('close', (code, signal) => {
    if (o.stop.aborted) return; // onStop ends it
    if (code !== 0)
      ctx.warn(`--exec for ${o.label} ${signal ? `was killed by ${signal}` : `exited with code ${code}`}`);
    finish();
  });
}

/** Sends a signal to the command's group (its process on Windows); 0 asks whether any of it is left. */
function groupSignaller(child: Child, ownGroup: boolean): (signal: NodeJS.Signals | 0) => boolean {
  return (signal) => {
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
