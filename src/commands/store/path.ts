import { defineCommand } from '../../cli/command.js';
import { pathOf } from './shared/open.js';

export default defineCommand({
  name: 'path',
  description: "Print the path of the profile's store (whether or not it exists yet)",
  examples: ['assess store path', 'sqlite3 "$(assess store path)" .tables'],
  async run(ctx) {
    ctx.io.stdout.write(`${pathOf(ctx, undefined)}\n`);
  },
});
