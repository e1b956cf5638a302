// What `assess sandbox status` does when it runs; its declaration (flags, help, fields) is ./status.ts.
import { lookupSharedSandbox, removeStaleRecord, sandboxPaths, staleNotice } from '../../cli/shared-sandbox.js';
import { configDir } from '../../config/store.js';
import { answers, printShared } from './shared/shared-view.js';
import type { Run } from '../../cli/command.js';
import type status from './status.js';

export const run: Run<typeof status> = async (ctx) => {
  const dir = configDir(ctx.env);
  const found = lookupSharedSandbox(dir);
  if (found.kind === 'running') {
    const answering = await answers(found.sandbox.baseUrl, ctx.signal);
    if (!answering)
      ctx.warn(
        `the shared sandbox (pid ${found.sandbox.pid}) does not answer at ${found.sandbox.baseUrl}; see its log: ` +
          `${found.sandbox.logFile}`,
      );
    return printShared(ctx, { running: true, ...found.sandbox, answering });
  }
  if (found.kind === 'starting') {
    ctx.info(`The shared sandbox is starting ('assess sandbox start', pid ${found.pid}).`);
    return printShared(ctx, { running: false, starting: true, stateFile: sandboxPaths(dir).state });
  }
  if (found.kind === 'stale') {
    removeStaleRecord(dir, found.pid);
    ctx.warn(staleNotice(found.pid));
  }
  ctx.info(
    "No shared sandbox is running; --sandbox commands use the embedded one. Start one with 'assess sandbox start'.",
  );
  await printShared(ctx, { running: false, stateFile: sandboxPaths(dir).state });
};
