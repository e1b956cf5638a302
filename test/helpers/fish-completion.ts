// Driving the fish completion script in a real fish: `complete -C '<line>'` is what fish runs on
// Tab. The script asks the built binary (`assess __complete`), found on PATH.
import { execFileSync } from 'node:child_process';
import { completionEnv, run } from './bash-completion.js';

export const hasFish = (() => {
  try {
    execFileSync('fish', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** What fish offers for each line (the text before the cursor), words only, sorted. */
export async function fishComplete(
  script: string,
  lines: string[],
  opts: { cwd: string; home: string; env?: Record<string, string> },
): Promise<string[][]> {
  const quoted = lines.map((l) => `'${l.replace(/[\\']/g, (c) => `\\${c}`)}'`).join(' ');
  const { stdout: out } = await run(
    'fish',
    ['--no-config', '-c', `source ${script}; for l in ${quoted}; complete -C $l; echo '<end>'; end`],
    { cwd: opts.cwd, encoding: 'utf8', env: completionEnv({ HOME: opts.home, ...opts.env }), maxBuffer: 64 << 20 },
  );
  return out
    .split('<end>\n')
    .slice(0, lines.length)
    .map((block) =>
      block
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split('\t')[0]!)
        .sort(),
    );
}
