// The store of the profile a command runs for (src/store/location.ts), opened once per command
// run and closed when it ends, and the service its records belong to (`target`): one profile's
// store holds what was done on the real service and, under --sandbox, on the config dir's
// sandbox, kept apart by this name.
import { join } from 'node:path';
import { configDir } from '../config/store.js';
import type { Context } from '../context.js';
import { Store, type Schema } from './db.js';
import { storePath } from './location.js';

/** Opens the profile's store with these parts (a usage error naming the file when it cannot be used). */
export function openProfileStore(ctx: Context, schemas: readonly Schema[]): Store {
  const store = Store.open(storePath(configDir(ctx.env), ctx.globals.profile), schemas, {
    what: 'the store',
    env: ctx.env,
    scrub: (text) => ctx.secrets.scrub(text),
  });
  ctx.onExit(() => store.close());
  return store;
}

/**
 * The service records are made on: the API's URL (origin and path, never the key) and the profile,
 * or `sandbox:<config dir>/sandbox` under --sandbox (embedded or shared, whatever its port).
 */
export async function storeTarget(ctx: Context): Promise<string> {
  const conn = await ctx.connection();
  if (conn.sandbox) return `sandbox:${join(configDir(ctx.env), 'sandbox')}`;
  const url = new URL(conn.baseUrl);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')} (profile ${conn.profile})`;
}
