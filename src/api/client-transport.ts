// What the v3 and v2 clients share: the hooks a caller gives a client, and the transport built
// from a connection (the two differ only in base URL and the key header's spelling). Every
// transport is made here, from a connection, so the connection's guard sees every request and its
// signal (a cancelled MCP call) aborts it, whatever client the command made.
import type { Connection } from './connection.js';
import { requireKey } from './connection.js';
import type { Gate } from './pace.js';
import type { DispatcherSource } from './keep-alive.js';
import { warnEachOnce } from './read/read.js';
import { Transport } from './transport.js';
import type { Secrets } from './redact.js';
import { budgetOf } from './wait-budget.js';

export interface ClientHooks {
  debug?: (line: string) => void;
  /** Told (once per operation and problem) what was unexpected in a write's successful answer. */
  warn?: (line: string) => void;
  signal?: AbortSignal;
  gate?: Gate;
  /** The run's keep-alive pool (ctx.pool). */
  pool?: DispatcherSource;
  /** The run's secrets: what the client logs, warns or puts in an error is scrubbed of them. */
  secrets?: Secrets;
}

const joined = (a?: AbortSignal, b?: AbortSignal) => (a && b ? AbortSignal.any([a, b]) : (a ?? b));

/** The API version's transport for a connection, and a warn-once that scrubs what it tells. */
export function clientTransport(conn: Connection, hooks: ClientHooks, api: 'v3' | 'v2') {
  if (!conn.sandbox) hooks.secrets?.add(conn.apiKey); // the sandbox's seed keys are public
  const transport = new Transport({
    baseUrl: api === 'v3' ? conn.baseUrl : conn.baseUrlV2,
    apiKey: requireKey(conn),
    authHeader: api === 'v3' ? 'X-API-KEY' : 'x-api-key',
    tryTimeoutMs: conn.tryTimeoutMs,
    // one --timeout for every client of the command (the MCP server gives each call its own connection)
    budget: budgetOf(conn, conn.timeoutMs),
    baseUrlFrom: api === 'v3' ? conn.baseUrlFrom : conn.baseUrlV2From,
    secrets: hooks.secrets,
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
