// The deprecated v2 client (header x-api-key, envelope {statuscode, description, result}).
// Operations are added by the v2 work; the transport and auth are shared with v3.
import type { Connection } from '../config/credentials.js';
import { requireKey } from '../config/credentials.js';
import { Transport } from './transport.js';
import type { ClientHooks } from './v3.js';

export function createV2Client(conn: Connection, hooks: ClientHooks = {}) {
  const transport = new Transport({
    baseUrl: conn.baseUrlV2,
    apiKey: requireKey(conn),
    authHeader: 'x-api-key',
    timeoutMs: conn.timeoutMs,
    maxAttempts: conn.maxAttempts,
    debug: hooks.debug,
    signal: hooks.signal,
    gate: hooks.gate,
  });
  return { transport };
}

export type V2Client = ReturnType<typeof createV2Client>;
