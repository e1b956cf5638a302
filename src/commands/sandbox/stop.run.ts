// What `assess sandbox stop` does when it runs; its declaration (flags, help, fields) is ./stop.ts.
import { lookupSharedSandbox, removeStaleRecord, sandboxAlive, staleNotice } from '../../cli/shared-sandbox.js';
import { configDir } from '../../config/store.js';
import { CancelledError, LocalError } from '../../errors.js';
import type { Run } from '../../cli/command.js';
import type stop from './stop.js';

const STOP_MS = 20_000;

export const run: Run<typeof stop> = async (ctx) => {
  const dir = configDir(ctx.env);
  const found = lookupSharedSandbox(dir);
  if (found.kind === 'none') return ctx.info('No shared sandbox is running.');
  if (found.kind === 'stale') {
    removeStaleRecord(dir, found.pid);
    return ctx.warn(staleNotice(found.pid));
  }
  if (found.kind === 'starting')
    throw new LocalError(
      `the shared sandbox is starting (pid ${found.pid} starts it)`,
      "run 'assess sandbox stop' again once 'assess sandbox start' is done",
    );
  const { pid, processStartedAt } = found.sandbox;
  // signalled only when it is the process the record (or the lock) names (lookupSharedSandbox checked its start time)
  try {
    process.kill(pid, 'SIGTERM');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ESRCH')
      throw new LocalError(`cannot stop the shared sandbox (pid ${pid}): ${(err as Error).message}`);
  }
  const deadline = ctx.now().getTime() + STOP_MS;
  while (sandboxAlive(pid, processStartedAt)) {
    if (ctx.signal.aborted) throw new CancelledError(`interrupted; the shared sandbox (pid ${pid}) is still stopping`);
    if (ctx.now().getTime() > deadline)
      throw new LocalError(
        `the shared sandbox (pid ${pid}) did not stop within ${STOP_MS / 1000} s`,
        `end it with: kill -9 ${pid}`,
      );
    await new Promise((r) => setTimeout(r, 50));
  }
  removeStaleRecord(dir, pid);
  ctx.info(`Shared sandbox stopped (pid ${pid}); its state is kept for the next start.`);
};
