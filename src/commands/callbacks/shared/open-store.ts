// Where the callbacks commands keep their records: the profile's store (src/store/location.ts),
// or the file `--store` names. An inbox or reconcile journal of an older assess (NDJSON) found
// where one used to be is named in a one-line notice and left as it is: nothing reads it now.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod/mini';
import { flag } from '../../../cli/command.js';
import { configDir } from '../../../config/store.js';
import type { Context } from '../../../context.js';
import { storePath } from '../../../store/location.js';
import type { Inbox } from './inbox.js';

export const STORE_FLAG = {
  store: flag(
    "the store file, a SQLite database (default: the profile's, <config dir>/store/<profile>.db)",
    { value: 'file' },
    () => z.optional(z.string().check(z.minLength(1, 'must name a file, e.g. ./callbacks.db'))),
  ),
};

/** The store file of this run: `--store`, else the profile's. */
export function callbacksStorePath(ctx: Context, given: string | undefined): string {
  return given ?? storePath(configDir(ctx.env), ctx.globals.profile);
}

/**
 * Opens the callbacks part of the store (creating the file unless `readOnly`: then null when
 * there is none yet). Says once per run when an older assess's NDJSON files lie where they used to.
 */
export async function openInbox(
  ctx: Context,
  given: string | undefined,
  opts: { readOnly?: boolean } = {},
): Promise<Inbox | null> {
  noticeOldFiles(ctx);
  const path = callbacksStorePath(ctx, given);
  if (opts.readOnly && !existsSync(path)) return null;
  const { Inbox } = await import('./inbox.js');
  const inbox = Inbox.open(path, ctx.env);
  ctx.onExit(() => inbox.close());
  return inbox;
}

const noticed = new WeakSet<Context>();

/** The files an older assess kept the inbox and reconcile's journal in (NDJSON): no longer read. */
export function noticeOldFiles(ctx: Context): void {
  if (noticed.has(ctx)) return;
  noticed.add(ctx);
  const dir = configDir(ctx.env);
  const p = ctx.globals.profile;
  const old = [
    join(dir, 'inbox', `${p}.ndjson`),
    join(dir, 'inbox', `${p}.quarantine.ndjson`),
    join(dir, 'reconcile', `${p}.journal.ndjson`),
  ];
  for (const file of old.filter((f) => existsSync(f)))
    ctx.info(`Note: ${file} is from an older assess (NDJSON); it is no longer read and was left as it is.`);
}
