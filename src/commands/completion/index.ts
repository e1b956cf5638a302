import { z } from 'zod';
import { defineCommand, defineNoun } from '../../cli/command.js';

const SHELLS = ['bash', 'zsh', 'fish'] as const;

const completion = defineCommand({
  name: 'completion',
  args: ['<shell>'],
  description: 'Print a shell completion script (bash, zsh or fish) generated from the commands',
  examples: ['source <(assess completion bash)', 'assess completion fish > ~/.config/fish/completions/assess.fish'],
  schema: z.object({ shell: z.enum(SHELLS, { message: `must be one of ${SHELLS.join(', ')}` }) }),
  async run(ctx, { shell }) {
    // Loaded here: the program module imports this one, so a static import would be circular.
    const { buildProgram } = await import('../../cli/program.js');
    const { collect, bash, zsh, fish } = await import('./script.js');
    const program = buildProgram({ proc: { stdout: ctx.io.stdout, stderr: ctx.io.stderr, stdin: ctx.io.stdin, env: ctx.env }, signal: ctx.signal, exitHooks: [] });
    const infos = collect(program);
    ctx.io.stdout.write({ bash, zsh, fish }[shell](infos));
  },
});

export default defineNoun({ name: 'completion', description: completion.description, verbs: [], self: completion });
