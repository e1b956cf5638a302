// `assess store info`: the store's file, size, parts and rows per table (./info.run.ts).
import { defineCommand } from '../../cli/command.js';
import { FILE_FLAG } from './shared/open.js';

const FIELDS = ['path', 'bytes', 'walBytes', 'parts', 'tables'];

export default defineCommand({
  name: 'info',
  description: "Show the store's file, size, parts (with their schema versions) and rows per table",
  examples: ['assess store info', 'assess store info --json parts,tables'],
  flags: { ...FILE_FLAG },
  jsonFields: FIELDS,
  handler: () => import('./info.run.js'),
});
