// `assess store backup FILE`: a consistent copy of the store, never replacing a file (./backup.run.ts).
import * as z from 'zod/mini';
import { arg, defineCommand } from '../../cli/command.js';
import { FILE_FLAG } from './shared/open.js';

export default defineCommand({
  name: 'backup',
  args: { file: arg(() => z.string().check(z.minLength(1, 'must name a file, e.g. backup.db'))) },
  description: 'Copy the store into a new file, consistently, also while others write to it (VACUUM INTO)',
  examples: ['assess store backup assess-$(date +%F).db', 'assess store check --store assess-$(date +%F).db'],
  flags: { ...FILE_FLAG },
  handler: () => import('./backup.run.js'),
});
