// The parts of undici the transport uses, loaded on their own. undici's index loads every
// feature it has (fetch, WebSocket, EventSource, mock agents, caches, a SQLite store): about
// 10 MB of resident memory that no command here needs. The package has no "exports" map, so
// these files are reachable; the lockfile pins the version, and the e2e suites (proxy tunnels
// included) send every request through them, so a moved file fails the tests, not a user's run.
import { createRequire } from 'node:module';
import type { Dispatcher, EnvHttpProxyAgent as EnvHttpProxyAgentType } from 'undici';

const load = createRequire(import.meta.url);

// What undici's index does on load: the request API (request, connect, stream …) becomes
// methods of every dispatcher. ProxyAgent opens its CONNECT tunnels through them.
const DispatcherClass: { prototype: object } = load('undici/lib/dispatcher/dispatcher.js');
Object.assign(DispatcherClass.prototype, load('undici/lib/api/index.js'));

export const EnvHttpProxyAgent: typeof EnvHttpProxyAgentType = load('undici/lib/dispatcher/env-http-proxy-agent.js');

/** undici's `request(url, opts)` for one dispatcher, without the package's index. */
export function request(url: string, opts: Omit<Dispatcher.RequestOptions, 'origin' | 'path'> & { dispatcher: Dispatcher }): Promise<Dispatcher.ResponseData> {
  const u = new URL(url);
  const { dispatcher, ...rest } = opts;
  return dispatcher.request({ ...rest, origin: u.origin, path: `${u.pathname}${u.search}` });
}
