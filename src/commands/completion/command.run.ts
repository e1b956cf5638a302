// `assess completion <shell>`: a bash, zsh or fish completion script. The script is small and the
// same for every version's commands: at each Tab it asks `assess __complete`.
import type { Run } from '../../cli/command.js';
import { VERSION } from '../../version.js';
import type completion from './command.js';
import { bash } from './shared/bash.js';
import { fish } from './shared/fish.js';
import { zsh } from './shared/zsh.js';

export const run: Run<typeof completion> = async (ctx, { shell }) => {
  ctx.io.stdout.write({ bash, zsh, fish }[shell](VERSION));
};
