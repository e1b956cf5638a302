// Driving a bash completion script the way bash does: COMP_WORDS / COMP_CWORD (and COMP_LINE for
// a line typed as text), then the completion function; the answer is COMPREPLY. All lines of one
// call run in one bash process, asynchronously (a busy machine can take a minute over them, and the
// test worker must keep answering vitest meanwhile); the script asks the BUILT binary
// (`assess __complete`), found on PATH.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { assessShim, baseEnv, tempDir } from './cli.js';

let shimDir: string | undefined;
/**
 * A directory whose `assess` runs the built binary, for PATH (and an empty config dir beside it):
 * a temp dir of the test file, removed when it ends (test/setup-temp-dirs.ts), made again after.
 */
export function assessOnPath(): string {
  if (shimDir && existsSync(shimDir)) return shimDir;
  const dir = assessShim(tempDir('assess-shim-').dir);
  mkdirSync(join(dir, 'config'));
  return (shimDir = dir);
}

/** Words as given (bash's own split), or a line as typed: split below as bash splits it. */
export type Typed = string[] | string;

/**
 * COMP_WORDS as bash makes them from a line typed with the cursor at its end: split at blanks,
 * and at each run of `=` and `:` (characters of COMP_WORDBREAKS), which becomes a word of its own
 * (`--url=http://h:1` → `--url` `=` `http` `:` `//h` `:` `1`). Unquoted words only.
 */
export function bashWords(line: string): string[] {
  const blank = line.split(/[ \t]+/);
  return blank.flatMap((w, i) =>
    w === '' ? (i === blank.length - 1 ? [''] : []) : w.split(/([=:]+)/).filter(Boolean),
  );
}

const quote = (w: string) => `'${w.replace(/'/g, `'\\''`)}'`;

/** What a shell asking `assess __complete` runs with: the shim first on PATH, a config dir of its own. */
export function completionEnv(env: Record<string, string> = {}): Record<string, string> {
  const dir = assessOnPath();
  return { ...baseEnv(join(dir, 'config')), ...env, PATH: `${dir}:${process.env.PATH}` };
}

export const run = promisify(execFile);

/** COMPREPLY (sorted) for each line, the last word being the one completed. */
export async function bashComplete(
  script: string,
  lines: Typed[],
  opts: { cwd?: string; prelude?: string; fn?: string; env?: Record<string, string> } = {},
): Promise<string[][]> {
  const calls = lines
    .map((l) =>
      typeof l === 'string'
        ? `COMP_LINE=${quote(l)} t ${bashWords(l).map(quote).join(' ')}`
        : `t ${l.map(quote).join(' ')}`,
    )
    .join('\n');
  const { stdout: out } = await run(
    'bash',
    [
      '--norc',
      '-c',
      `${opts.prelude ?? ''}
source ${quote(script)}
t() { COMP_WORDS=("$@"); COMP_CWORD=$((\${#COMP_WORDS[@]} - 1)); COMPREPLY=(); ${opts.fn ?? '_assess'}; printf '%s\\x1f' "\${COMPREPLY[@]}"; printf '\\n'; }
${calls}`,
    ],
    { cwd: opts.cwd, encoding: 'utf8', env: completionEnv(opts.env), maxBuffer: 64 << 20 },
  );
  return out
    .split('\n')
    .slice(0, lines.length)
    .map((l) => l.split('\x1f').filter(Boolean).sort());
}
