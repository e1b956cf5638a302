// `assess sandbox status`: whether the shared sandbox of this config dir runs, where, and with which keys.
import { defineCommand } from '../../cli/command.js';
import { lookupSharedSandbox, removeStaleRecord, sandboxPaths, staleNotice } from '../../cli/shared-sandbox.js';
import { configDir } from '../../config/store.js';
import { answers, printShared, SHARED_FIELDS } from './shared/shared-view.js';

export default defineCommand({
  name: 'status',
  description: 'Show whether the shared sandbox (assess sandbox start) runs: its URL, keys, pid, state and log',
  examples: ['assess sandbox status', 'assess sandbox status --json running,baseUrl'],
  jsonFields: SHARED_FIELDS,
  async run(ctx) {
    const dir = configDir(ctx.env);
    const found = lookupSharedSandbox(dir);
    if (found.kind === 'running') {
      const answering = await answers(found.sandbox.baseUrl, ctx.signal);
      if (!answering)
        ctx.warn(
          `the shared sandbox (pid ${found.sandbox.pid}) does not answer at ${found.sandbox.baseUrl}; see its log: ${found.sandbox.logFile}`,
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
  },
});
