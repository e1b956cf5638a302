// The connection to a sandbox under --sandbox: the shared one of `assess sandbox start` when it
// runs, else one embedded in this command's process for its run.
import type { Connection } from '../config/credentials.js';
import type { ConfigStore } from '../config/store.js';
import { DEFAULT_TRY_TIMEOUT_MS } from '../api/transport-spec.js';
import { type Context } from '../context.js';
import { UsageError } from '../errors.js';
import { fileProblem } from '../util/file-errors.js';
import { makePrivateDir } from '../util/private-dir.js';
import { plural } from '../util/plural.js';
import type { Runtime } from './context-factory.js';

const EMBEDDED_DELIVERY_WAIT_MS = 10_000;

type EmbeddedSandbox = Awaited<ReturnType<(typeof import('../sandbox/index.js'))['startSandbox']>>;

/** `--sandbox`: an in-process sandbox on 127.0.0.1:0 with state under the config dir. */
export async function startEmbeddedSandbox(
  ctx: Context,
  rt: Runtime,
  config: () => Promise<ConfigStore>,
): Promise<Connection> {
  const store = await config();
  const { startSandbox, parseRateLimit } = await import('../sandbox/index.js');
  const { sandboxPaths } = await import('./shared-sandbox.js');
  const rateLimit = embeddedRateLimit(ctx.env.ASSESS_SANDBOX_RATE_LIMIT, parseRateLimit);
  const paths = sandboxPaths(store.dir);
  const unwritable = (err: unknown) => stateUnwritable(err, store.dir, paths.state);
  try {
    makePrivateDir(paths.dir);
  } catch (err) {
    throw unwritable(err);
  }
  // Commands run at once (a script's `&`, an `mcp` session left open) share the state file:
  // SQLite's locks let each write in turn, none waits for another to end.
  const sb = await startSandbox({
    port: 0,
    host: '127.0.0.1',
    stateFile: paths.state,
    formerStateFile: paths.formerState,
    onNotice: (line) => ctx.warn(line),
    env: ctx.env,
    rateLimit,
  }).catch((err: unknown) => {
    // a state that cannot be used (a bad file, busy past the timeout) is a UsageError naming it;
    // a config directory that cannot be written (read-only, mode 555, HOME not writable): exit 2
    throw unwritable(err);
  });
  rt.exitHooks.push(() => closeEmbedded(ctx, sb));
  ctx.info(`Using the embedded sandbox at ${sb.baseUrl} (nothing is sent to the service; -q hides this)`);
  const injected = sb.faults.view().spec; // kept in the state by an earlier `assess --sandbox sandbox faults`
  if (injected) ctx.info(`Injecting faults: ${injected} (clear them with 'assess --sandbox sandbox faults --clear')`);
  return { ...(await sandboxConnection(ctx, sb)), embedded: true };
}

/**
 * ASSESS_SANDBOX_RATE_LIMIT: a rate limit for the embedded sandbox, so that e2e tests and trials
 * of --rate meet one without a shared sandbox; checked before anything starts.
 */
function embeddedRateLimit<T>(text: string | undefined, parse: (text: string) => T): T | null {
  try {
    return text ? parse(text) : null;
  } catch (err) {
    throw new UsageError(
      `ASSESS_SANDBOX_RATE_LIMIT: ${(err as Error).message}`,
      'e.g. ASSESS_SANDBOX_RATE_LIMIT=25/s,burst=5 (or unset it)',
    );
  }
}

/** A state that cannot be written under the config dir as a UsageError saying where and what to do. */
function stateUnwritable(err: unknown, dir: string, stateFile: string): unknown {
  const problem = fileProblem(
    err,
    "the embedded sandbox's state in",
    (err as NodeJS.ErrnoException).path ?? stateFile,
    undefined,
    'write',
  );
  return problem
    ? new UsageError(
        problem.message,
        `the embedded sandbox keeps its state in ${dir}: free space or fix the permissions there, or set ` +
          `ASSESS_CONFIG_DIR to a writable directory`,
      )
    : err;
}

async function closeEmbedded(ctx: Context, sb: EmbeddedSandbox): Promise<void> {
  // callbacks the command triggered are delivered in the background: wait for them (bounded);
  // those an earlier command left pending keep trying meanwhile, but nobody waits for them
  if (!ctx.signal.aborted) await sb.idle(EMBEDDED_DELIVERY_WAIT_MS, true);
  const left = sb.deliveriesInFlight(true);
  if (left)
    ctx.warn(
      `${plural(left, 'callback delivery', 'callback deliveries')} still pending; ` +
        `${left === 1 ? 'it resumes' : 'they resume'} the next time the sandbox starts.`,
    );
  await sb.close();
}

/** `--sandbox` while `assess sandbox start` runs one for this config dir: that one, shared by every command. */
export async function sharedSandbox(ctx: Context, config: () => Promise<ConfigStore>): Promise<Connection | undefined> {
  const { lookupSharedSandbox, removeStaleRecord, staleNotice } = await import('./shared-sandbox.js');
  const dir = (await config()).dir;
  const found = lookupSharedSandbox(dir);
  // none yet, or one being started: the embedded sandbox uses the same state file meanwhile
  if (found.kind === 'none' || found.kind === 'starting') return undefined;
  if (found.kind === 'stale') {
    removeStaleRecord(dir, found.pid);
    ctx.warn(
      `${staleNotice(found.pid)} Using the embedded sandbox; start a shared one again with 'assess sandbox start'.`,
    );
    return undefined;
  }
  const sb = found.sandbox;
  ctx.info(`Using the shared sandbox at ${sb.baseUrl} (nothing is sent to the service; -q hides this)`);
  return sandboxConnection(ctx, sb);
}

async function sandboxConnection(
  ctx: Context,
  sb: { baseUrl: string; baseUrlV2: string; keys: string[] },
): Promise<Connection> {
  // A seed key given the usual way picks that sandbox account (to try account isolation);
  // anything else means the first account.
  const { resolveKey } = await import('../config/credentials.js');
  const { answerCapBytes } = await import('../api/answer-cap.js');
  const given = await resolveKey({
    apiKeyFile: ctx.globals.apiKeyFile,
    keyStdin: ctx.globals.keyStdin,
    env: ctx.env,
    stdin: ctx.globals.keyStdin ? ctx.io.stdin : undefined,
    profile: {},
    signal: ctx.signal,
    warn: ctx.warn,
  });
  // a key of the user's is a secret here too (the sandbox's seed keys are public)
  if (given.apiKey && !sb.keys.includes(given.apiKey)) ctx.secrets.add(given.apiKey);
  return {
    apiKey: given.apiKey && sb.keys.includes(given.apiKey) ? given.apiKey : sb.keys[0],
    keySource: 'sandbox',
    profile: ctx.globals.profile,
    baseUrl: sb.baseUrl,
    baseUrlV2: sb.baseUrlV2,
    baseUrlFrom: 'the sandbox',
    baseUrlV2From: 'the sandbox',
    timeoutMs: ctx.globals.timeoutMs,
    tryTimeoutMs: ctx.globals.tryTimeoutMs ?? DEFAULT_TRY_TIMEOUT_MS,
    maxAttempts: 4,
    maxAnswerBytes: answerCapBytes(ctx.env),
    sandbox: true,
  };
}
