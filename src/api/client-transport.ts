// What the v3 and v2 clients share: the hooks a caller gives a client, and the transport built
// from a connection (the two differ only in base URL and the key header's spelling). Every
// transport is made here, from a connection, so the connection's guard sees every request and its
// signal (a cancelled MCP call) aborts it, whatever client the command made.
import type { Connection } from '../config/credentials.js';
import { requireKey } from '../config/credentials.js';
import type { Gate } from './pace.js';
import type { DispatcherSource } from './keep-alive.js';
import { warnEachOnce } from './read/read.js';
import { Transport } from './transport.js';

export interface ClientHooks {
  debug?: (line: string) => void;
  /** Told (once per operation and problem) what was unexpected in a write's successful answer. */
  warn?: (line: string) => void;
  signal?: AbortSignal;
  gate?: Gate;
  /** The run's keep-alive pool (ctx.pool). */
  pool?: DispatcherSource;
}

const joined = (a?: AbortSignal, b?: AbortSignal) => (a && b ? AbortSignal.any([a, b]) : (a ?? b));

/** The API version's transport for a connection, and a warn-once that scrubs what it tells. */
export function clientTransport(conn: Connection, hooks: ClientHooks, api: 'v3' | 'v2') {
  const transport = new Transport({
    baseUrl: api === 'v3' ? conn.baseUrl : conn.baseUrlV2,
    apiKey: requireKey(conn),
    authHeader: api === 'v3' ? 'X-API-KEY' : 'x-api-key',
    timeoutMs: conn.timeoutMs,
    maxAttempts: conn.maxAttempts,
    insecureHttp: conn.insecureHttp,
    maxAnswerBytes: conn.maxAnswerBytes,
    debug: hooks.debug,
    pool: hooks.pool,
    signal: joined(hooks.signal, conn.signal),
    gate: hooks.gate,
    guard: conn.guard,
  });
  return { transport, warnOnce: warnEachOnce(hooks.warn, (line) => transport.scrub(line)) };
}
