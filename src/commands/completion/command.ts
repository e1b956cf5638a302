import * as z from 'zod/mini';
import { defineCommand, arg } from '../../cli/command.js';
import { VERSION } from '../../version.js';
import { SHELLS } from './shared/shells.js';

export default defineCommand({
  name: 'completion',
  args: {
    shell: arg(() => z.enum(SHELLS, { message: `must be one of ${SHELLS.join(', ')}` })),
  },
  description: 'Print a shell completion script (bash, zsh or fish) generated from the commands',
  examples: ['source <(assess completion bash)', 'assess completion fish > ~/.config/fish/completions/assess.fish'],
  async run(ctx, { shell }) {
    const [{ collect }, { bash }, { zsh }, { fish }] = await Promise.all([
      import('./shared/collect.js'),
      import('./shared/bash.js'),
      import('./shared/zsh.js'),
      import('./shared/fish.js'),
    ]);
    // the tree that is running, every noun built, with each command's definition: flags, schemas, fields
    const tree = await collect(await ctx.commandTree());
    ctx.io.stdout.write({ bash, zsh, fish }[shell](tree, VERSION));
  },
});
