// Where the clients of a run are made: from a connection (whose guard and signal every request
// of every client passes: client-transport.ts) and the hooks the run gives them. Each API's
// client loads with its first use.
import type { ClientHooks } from './client-transport.js';
import type { Connection } from './connection.js';
import type { V2Client } from './v2.js';
import type { V3Client } from './v3.js';

export type { ClientHooks } from './client-transport.js';

export async function v3ClientOf(conn: Connection, hooks: ClientHooks = {}): Promise<V3Client> {
  const { createV3Client } = await import('./v3.js');
  return createV3Client(conn, hooks);
}

export async function v2ClientOf(conn: Connection, hooks: ClientHooks = {}): Promise<V2Client> {
  const { createV2Client } = await import('./v2.js');
  return createV2Client(conn, hooks);
}
