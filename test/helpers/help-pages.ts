// Every --help page of the BUILT program (dist/cli.cjs, every noun built), keyed by command path
// ('' for the program), laid out at 80 columns for a stream that is no terminal: what
// scripts/gen-docs.mjs writes to docs/commands.md, and what `assess <path> --help | cat` prints.
import { createRequire } from 'node:module';
import { PassThrough } from 'node:stream';
import { join } from 'node:path';
import type { Command } from 'commander';
import { ROOT } from './cli.js';

interface Built {
  buildProgram(rt: object): Promise<Command>;
  helpPages(program: Command): Record<string, string>;
}

export async function helpPagesOfBuild(): Promise<Record<string, string>> {
  const { buildProgram, helpPages } = createRequire(import.meta.url)(join(ROOT, 'dist/cli.cjs')) as Built;
  const proc = {
    stdout: new PassThrough(),
    stderr: new PassThrough(),
    stdin: new PassThrough(),
    env: { NO_COLOR: '1' },
  };
  return helpPages(await buildProgram({ proc, signal: new AbortController().signal, debug: false, exitHooks: [] }));
}
