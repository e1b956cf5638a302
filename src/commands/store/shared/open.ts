// The store a `store` command works on: the profile's (src/store/location.ts) or --store FILE,
// opened without any part's schema (these commands read what is there, whichever parts).
import { existsSync } from 'node:fs';
import * as z from 'zod/mini';
import { flag } from '../../../cli/command.js';
import { configDir } from '../../../config/store.js';
import type { Context } from '../../../context.js';
import { NotFoundError } from '../../../errors.js';
import type { Store } from '../../../store/db.js';
import { storePath } from '../../../store/location.js';

export const FILE_FLAG = {
  store: flag("the store file (default: the profile's, <config dir>/store/<profile>.db)", { value: 'file' }, () =>
    z.optional(z.string().check(z.minLength(1, 'must name a file, e.g. ./backup.db'))),
  ),
};

export const pathOf = (ctx: Context, given: string | undefined) =>
  given ?? storePath(configDir(ctx.env), ctx.globals.profile);

/** Opens an existing store (exit 4 when there is none yet: nothing was kept so far). */
export async function openExisting(ctx: Context, given: string | undefined): Promise<Store> {
  const path = pathOf(ctx, given);
  if (!existsSync(path))
    throw new NotFoundError(
      `no store at ${path} yet: this profile has kept nothing so far`,
      given ? 'check the path' : 'callbacks listen, for one, creates it',
    );
  const { Store } = await import('../../../store/db.js');
  const store = Store.open(path, [], { what: 'the store', env: ctx.env });
  ctx.onExit(() => store.close());
  return store;
}
