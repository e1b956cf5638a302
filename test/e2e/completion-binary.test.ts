// `assess completion <shell>` from the built binary (a shell runs it at every start): the script
// the program generates from the current source, whatever else is on the line.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bashComplete } from '../helpers/bash-completion.js';
import { runAssess, tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';

const debug = { ASSESS_DEBUG: '1' };

describe('completion scripts from the built binary', () => {
  it.each(['bash', 'zsh', 'fish'])(
    '%s: the built binary prints what the program generates from the source',
    async (shell) => {
      const built = await runAssess(['completion', shell], { env: debug });
      expect(built.code, built.stderr).toBe(0);
      const fresh = await runInProcess(['completion', shell]);
      expect(fresh.code, fresh.stderr).toBe(0);
      expect(built.stdout).toBe(fresh.stdout);
    },
  );

  it('a shell it does not know, or another flag, goes to the program', async () => {
    const bad = await runAssess(['completion', 'nosh'], { env: debug });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/<shell>: must be one of bash, zsh, fish \(got "nosh"\)/);
    expect(bad.stderr).toMatch(/\[debug\] compile cache/);
    const withFlag = await runAssess(['completion', 'bash', '--no-color'], { env: debug });
    expect(withFlag.code, withFlag.stderr).toBe(0);
    expect(withFlag.stderr).toMatch(/\[debug\] compile cache/);
    expect(withFlag.stdout).toBe((await runAssess(['completion', 'bash'])).stdout);
  });

  it('`completion constructor` (a key every object has) is not a shell', async () => {
    const r = await runAssess(['completion', 'constructor']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/must be one of bash, zsh, fish/);
  });
});

describe('completion values read when completing', () => {
  it('bash --profile: the profiles of the config file, from the built binary on PATH', async () => {
    const t = tempDir();
    try {
      const set = await runAssess(['--profile', 'work', 'config', 'set', 'base-url', 'http://127.0.0.1:9'], {
        configDir: t.dir,
      });
      expect(set.code, set.stderr).toBe(0);
      const script = join(t.dir, 'assess.bash');
      writeFileSync(script, (await runAssess(['completion', 'bash'])).stdout);
      // bashComplete puts the built binary on PATH
      const env = { ASSESS_CONFIG_DIR: t.dir };
      expect(await bashComplete(script, ['assess --profile '], { prelude: 'unset ASSESS_PROFILE', env })).toEqual([
        ['default', 'work'],
      ]);
    } finally {
      t.cleanup();
    }
  });
});
