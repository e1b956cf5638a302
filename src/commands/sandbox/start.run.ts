// What `assess sandbox start` does when it runs; its declaration (flags, help, fields) is ./start.ts.
import type { ChildProcess } from 'node:child_process';
import { closeSync, existsSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  claimStart,
  lookupSharedSandbox,
  removeStaleRecord,
  sandboxPaths,
  staleNotice,
  type SharedSandbox,
} from '../../cli/shared-sandbox.js';
import { configDir } from '../../config/store.js';
import { CancelledError, LocalError, UsageError } from '../../errors.js';
import { printShared } from './shared/shared-view.js';
import { formatRateLimit, type RateLimitSpec } from '../../sandbox/specs.js';
import type { Context } from '../../context.js';
import { processStartedAt } from '../../util/process-alive.js';
import { makeDirs } from '../../util/private-dir.js';
import type { Run } from '../../cli/command.js';
import type start from './start.js';

const READY_MS = 30_000;

export const run: Run<typeof start> = async (ctx, input) => {
  const dir = configDir(ctx.env);
  const paths = sandboxPaths(dir);
  makeDirs(paths.dir);
  // one start brings the shared sandbox up; one run at the same moment waits for it and shows it
  for (let round = 0; !claimStart(dir); round++) {
    const found = lookupSharedSandbox(dir);
    if (found.kind === 'running') {
      ctx.info(`A shared sandbox is already running (pid ${found.sandbox.pid}); stop it with 'assess sandbox stop'.`);
      return printShared(ctx, { running: true, ...found.sandbox });
    }
    if (found.kind === 'starting') {
      const other = await recordOf(dir, found.pid, ctx.signal);
      if (other) return printShared(ctx, { running: true, ...other });
    } else if (found.kind === 'stale') {
      removeStaleRecord(dir, found.pid);
      ctx.warn(staleNotice(found.pid));
    }
    if (round >= 3) throw new LocalError(`the shared sandbox did not start: its record ${paths.record} keeps changing`);
  }
  let bg: Background;
  try {
    bg = await serveInBackground(ctx, paths, input);
  } catch (err) {
    removeStaleRecord(dir, process.pid); // the `starting` record: no sandbox came of it
    throw err;
  }
  const { child, ready } = bg;
  if (ready === null) {
    removeStaleRecord(dir, process.pid);
    const why = firstError(paths.log, bg.logFrom);
    // serve exits 2 for a bad file (an unusable state file, an unwritable config dir): so does start
    if (child.exitCode === 2) throw new UsageError(`the shared sandbox did not start: ${why}`, `its log: ${paths.log}`);
    throw new LocalError(`the shared sandbox did not start: ${why}`, `its log: ${paths.log}`);
  }
  const info = JSON.parse(ready) as { baseUrl: string; baseUrlV2: string; keys: string[] };
  const rec: SharedSandbox = {
    pid: child.pid!,
    baseUrl: info.baseUrl,
    baseUrlV2: info.baseUrlV2,
    keys: info.keys,
    stateFile: paths.state,
    logFile: paths.log,
    startedAt: ctx.now().toISOString(),
    processStartedAt: processStartedAt(child.pid!),
  };
  // imported here: it loads node:crypto, which the noun's usage errors must not pay for
  const { writeFileAtomic } = await import('../../files/atomic.js');
  writeFileAtomic(paths.record, `${JSON.stringify(rec, null, 2)}\n`, 'the shared sandbox record');
  await printShared(ctx, { running: true, ...rec });
  ctx.info(
    `Every --sandbox command now uses it, e.g. assess --sandbox tests list. Stop it with 'assess sandbox stop'.`,
  );
};

interface Background {
  child: ChildProcess;
  /** Where in the shared log its server's lines begin. */
  logFrom: number;
  /** Its first line on stdout (the URLs and keys), or null when it exited first. */
  ready: string | null;
}

/** `assess sandbox serve` on the config dir's state, in its own session, its stderr in the log. */
async function serveInBackground(
  ctx: Context,
  paths: ReturnType<typeof sandboxPaths>,
  input: { port: number; rateLimit?: RateLimitSpec | null },
): Promise<Background> {
  const logFd = openSync(paths.log, 'a', 0o600);
  const logFrom = fstatSync(logFd).size; // what this start's server writes comes after
  let child: ChildProcess;
  try {
    const entry = assessEntry();
    // its own session (setsid): the terminal's Ctrl-C and hang-up do not reach it; `sandbox stop` does
    const { spawn } = await import('node:child_process'); // only start spawns: not loaded for the noun's other verbs
    const limit = input.rateLimit ? ['--rate-limit', formatRateLimit(input.rateLimit)] : [];
    child = spawn(
      process.execPath,
      [entry, 'sandbox', 'serve', '--port', String(input.port), '--state', paths.state, ...limit, '--json'],
      {
        cwd: paths.dir,
        env: { ...ctx.env, ASSESS_QUIET: undefined, ASSESS_API_KEY: undefined } as NodeJS.ProcessEnv,
        detached: true,
        stdio: ['ignore', 'pipe', logFd],
      },
    );
  } finally {
    closeSync(logFd);
  }
  const ready = await firstLine(child, ctx.signal).catch((err: unknown) => {
    if (child.exitCode === null) child.kill('SIGTERM');
    throw err;
  });
  child.stdout!.destroy();
  child.unref();
  return { child, logFrom, ready };
}

/**
 * The script that runs assess: dist/main.cjs beside the built program (dist/cli.cjs), or, when
 * the program runs from its sources (tests, `npm run dev`), the package's built binary.
 */
function assessEntry(): string {
  const here = typeof __dirname === 'string' ? __dirname : dirname(fileURLToPath(import.meta.url));
  for (const entry of [join(here, 'main.cjs'), resolve(here, '../../../bin/assess.cjs')])
    if (existsSync(entry)) return entry;
  if (process.argv[1]) return process.argv[1];
  throw new LocalError('cannot tell which script runs assess, so it cannot start itself in the background');
}

/** The child's first stdout line, or null when it exits first. */
function firstLine(child: ChildProcess, signal: AbortSignal): Promise<string | null> {
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(
      () => reject(new LocalError(`the shared sandbox did not answer within ${READY_MS / 1000} s`)),
      READY_MS,
    );
    const onAbort = () => reject(new CancelledError('interrupted while the shared sandbox was starting'));
    signal.addEventListener('abort', onAbort, { once: true });
    const end = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    };
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const nl = out.indexOf('\n');
      if (nl >= 0) {
        end();
        resolve(out.slice(0, nl));
      }
    });
    child.on('exit', () => {
      end();
      resolve(null);
    });
    child.on('error', (err) => {
      end();
      reject(new LocalError(`could not start the shared sandbox: ${err.message}`));
    });
  });
}

/**
 * The record of the shared sandbox another `start` (this pid) brings up, once it is up; undefined when that one gave
 * up.
 */
async function recordOf(dir: string, pid: number, signal: AbortSignal): Promise<SharedSandbox | undefined> {
  const deadline = Date.now() + READY_MS;
  while (Date.now() < deadline && !signal.aborted) {
    const found = lookupSharedSandbox(dir);
    if (found.kind === 'running') return found.sandbox;
    if (found.kind !== 'starting' || found.pid !== pid) return undefined;
    await new Promise((r) => setTimeout(r, 50));
  }
  return undefined;
}

/** The first line its server wrote to the log, from `from` on (its error). */
function firstError(file: string, from: number): string {
  try {
    // the log is shared: a start at the same moment may have written its server's banner here too
    const lines = readFileSync(file).subarray(from).toString('utf8').trim().split('\n');
    const line = lines.find((l) => /^error:/i.test(l)) ?? lines[0];
    return line?.replace(/^error:\s*/i, '') || 'it exited without a message';
  } catch {
    return 'it exited without a message';
  }
}
