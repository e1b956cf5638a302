// A profile pointed at the URL `assess sandbox start` printed stops working when the sandbox is
// started again on another port: the connection is refused. When the address that failed is on
// this machine and this config dir's shared sandbox runs elsewhere (or no longer runs), the hint
// says so and how to fix it, instead of the generic advice about networks and proxies.
import { configDir } from '../config/store.js';
import { lookupSharedSandbox } from './shared-sandbox.js';

const LOCAL = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/i;

export function movedSandboxHint(url: string, env: Record<string, string | undefined>): string | undefined {
  let failed: URL;
  try {
    failed = new URL(url);
  } catch {
    return undefined;
  }
  if (!LOCAL.test(failed.hostname)) return undefined;
  let found: ReturnType<typeof lookupSharedSandbox>;
  try {
    found = lookupSharedSandbox(configDir(env));
  } catch {
    return undefined;
  }
  const port = failed.port || '80';
  if (found.kind === 'running') {
    const now = new URL(found.sandbox.baseUrl);
    if (now.origin === failed.origin) return undefined;
    return (
      `the sandbox moved: it runs at ${now.origin} now, not ${failed.origin}; use --sandbox (it finds it ` +
      `wherever it runs), point the profile at ${found.sandbox.baseUrl}, or start it on the old port: assess sandbox ` +
      `stop && assess sandbox start --port ${port}`
    );
  }
  if (found.kind === 'stale')
    return (
      `no sandbox runs at ${failed.origin} any more (it was stopped); start it again on that port (assess ` +
      `sandbox start --port ${port}), or use --sandbox`
    );
  return undefined;
}
