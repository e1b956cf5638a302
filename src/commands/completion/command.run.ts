// `assess completion <shell>`: a bash, zsh or fish completion script, generated from the running
// command tree.
import type { Run } from '../../cli/command.js';
import { VERSION } from '../../version.js';
import type completion from './command.js';
import { bash } from './shared/bash.js';
import { collect } from './shared/collect.js';
import { fish } from './shared/fish.js';
import { zsh } from './shared/zsh.js';

export const run: Run<typeof completion> = async (ctx, { shell }) => {
  // the tree that is running, every noun built, with each command's definition: flags, schemas, fields
  const tree = await collect(await ctx.commandTree());
  ctx.io.stdout.write({ bash, zsh, fish }[shell](tree, VERSION));
};
