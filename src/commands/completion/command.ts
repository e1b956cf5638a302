// `assess completion <shell>`: a completion script generated from the commands (./command.run.ts).
import * as z from 'zod/mini';
import { defineCommand, arg } from '../../cli/command.js';
import { SHELLS } from './shared/shells.js';

export default defineCommand({
  name: 'completion',
  args: {
    shell: arg(() => z.enum(SHELLS, { message: `must be one of ${SHELLS.join(', ')}` })),
  },
  description: 'Print a shell completion script (bash, zsh or fish)',
  examples: ['source <(assess completion bash)', 'assess completion fish > ~/.config/fish/completions/assess.fish'],
  handler: () => import('./command.run.js'),
});
