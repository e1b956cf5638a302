// store path: where the profile's store is, whether or not it exists yet (./path.run.ts).
import { defineCommand } from '../../cli/command.js';

export default defineCommand({
  name: 'path',
  description: "Print the path of the profile's store (whether or not it exists yet)",
  examples: ['assess store path', 'sqlite3 "$(assess store path)" .tables'],
  handler: () => import('./path.run.js'),
});
