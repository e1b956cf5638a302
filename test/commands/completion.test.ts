import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { runInProcess as runAssess } from '../helpers/in-process.js';

const NOUNS = ['auth', 'config', 'tests', 'links', 'invite', 'attempts', 'reattempt', 'report', 'callbacks', 'settings', 'sandbox', 'api', 'completion'];

describe('assess completion', () => {
  it.each(['bash', 'zsh', 'fish'])('%s output lists every command', async (shell) => {
    const r = await runAssess(['completion', shell]);
    expect(r.code).toBe(0);
    for (const noun of NOUNS) expect(r.stdout, noun).toContain(noun);
    for (const verb of ['list', 'create', 'update', 'simulate', 'cancel']) expect(r.stdout).toContain(verb);
  });

  it('the bash script is valid and completes nouns, verbs and enum values', async () => {
    const r = await runAssess(['completion', 'bash']);
    const { dir, cleanup } = tempDir();
    try {
      writeFileSync(`${dir}/c.bash`, r.stdout);
      const complete = (words: string[]) =>
        execFileSync(
          'bash',
          [
            '-c',
            `source ${dir}/c.bash; COMP_WORDS=(${words.map((w) => `"${w}"`).join(' ')}); COMP_CWORD=${words.length - 1}; _assess; echo "\${COMPREPLY[@]}"`,
          ],
          {
            encoding: 'utf8',
          },
        ).trim();
      expect(complete(['assess', 'lin'])).toBe('links');
      expect(complete(['assess', 'links', 'cr'])).toBe('create');
      expect(complete(['assess', 'attempts', 'list', '--state', ''])).toBe('completed cancelled expired');
      expect(complete(['assess', 'tests', 'list', '--page-'])).toBe('--page-size');
    } finally {
      cleanup();
    }
  });

  it('an unknown shell is a usage error', async () => {
    const r = await runAssess(['completion', 'powershell']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/<shell>: must be one of bash, zsh, fish/);
  });
});
