// `assess store check`: SQLite's own full check of the file (PRAGMA integrity_check): every page,
// every index against its table. Exit 1 with SQLite's findings when it is damaged.
import type { Run } from '../../cli/command.js';
import { OutcomeError } from '../../errors.js';
import type check from './check.js';
import { openExisting } from './shared/open.js';

export const run: Run<typeof check> = async (ctx, input) => {
  const store = await openExisting(ctx, input.store);
  const problems = store.check().filter((line) => line !== 'ok');
  if (problems.length)
    throw new OutcomeError(
      `${store.path} is damaged: ` +
        `${problems.slice(0, 3).join('; ')}${problems.length > 3 ? ` (and ${problems.length - 3} more)` : ''}`,
      'restore a backup (assess store backup makes one), or move the file away to start anew',
    );
  ctx.info(`${store.path}: ok (integrity check passed).`);
};
