// `assess store check`: SQLite's own full check of the file; exit 1 when damaged (./check.run.ts).
import { defineCommand } from '../../cli/command.js';
import { FILE_FLAG } from './shared/open.js';

export default defineCommand({
  name: 'check',
  description: "Check the store's integrity (SQLite's PRAGMA integrity_check); exit 1 when it is damaged",
  examples: ['assess store check', 'assess store check && assess store backup nightly-$(date +%F).db'],
  flags: { ...FILE_FLAG },
  handler: () => import('./check.run.js'),
});
