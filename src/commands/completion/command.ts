import { z } from 'zod';
import { defineCommand } from '../../cli/command.js';

const SHELLS = ['bash', 'zsh', 'fish'] as const;

export default defineCommand({
  name: 'completion',
  args: ['<shell>'],
  description: 'Print a shell completion script (bash, zsh or fish) generated from the commands',
  examples: ['source <(assess completion bash)', 'assess completion fish > ~/.config/fish/completions/assess.fish'],
  schema: z.object({ shell: z.enum(SHELLS, { message: `must be one of ${SHELLS.join(', ')}` }) }),
  async run(ctx, { shell }) {
    const { collect, bash, zsh, fish } = await import('./shared/script.js');
    const program = ctx.program(); // the tree that is running: no second build, no import of program.ts
    const infos = collect(program);
    ctx.io.stdout.write({ bash, zsh, fish }[shell](infos));
  },
});
