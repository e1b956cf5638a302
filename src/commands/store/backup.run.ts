// `assess store backup FILE`: a consistent copy of the store (VACUUM INTO), also while a listener
// or another run writes to it; the copy is 0600 like the store, and never replaces a file.
import { closeSync, existsSync, openSync, rmSync } from 'node:fs';
import type { Run } from '../../cli/command.js';
import { UsageError } from '../../errors.js';
import { asFileError } from '../../util/file-errors.js';
import type backup from './backup.js';
import { openExisting } from './shared/open.js';

export const run: Run<typeof backup> = async (ctx, input) => {
  if (existsSync(input.file))
    throw new UsageError(`<file>: ${input.file} exists; a backup never replaces a file`, 'choose a new file name');
  const store = await openExisting(ctx, input.store);
  try {
    closeSync(openSync(input.file, 'wx', 0o600)); // VACUUM INTO fills an empty file, keeping its mode
  } catch (err) {
    throw asFileError(err, 'the backup', input.file, undefined, 'create');
  }
  try {
    store.backup(input.file);
  } catch (err) {
    rmSync(input.file, { force: true });
    throw err;
  }
  ctx.info(`Backed up ${store.path} to ${input.file}; assess store check --store ${input.file} checks the copy.`);
};
