// `npm run demo` prints each step as a command line to paste: a POSIX shell must read back the
// very words the demo ran (`--name 'Ann Lee'`), and each step succeeds. The PDF it downloads is
// kept where its last lines say, with how to go on (npx assess).
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

describe('the demo', () => {
  it('prints every step so that a shell reads back the same words', () => {
    const run = spawnSync(process.execPath, [join(ROOT, 'scripts/demo.mjs')], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH, NO_COLOR: '1' },
    });
    expect(run.status, run.stderr).toBe(0);
    const lines = run.stderr.split('\n').filter((l) => l.startsWith('$ assess '));
    expect(lines.length).toBeGreaterThan(5);
    const words = lines.map((l) => {
      const sh = spawnSync('sh', ['-c', `set -- ${l.slice(2)}; printf '%s\\0' "$@"`], { encoding: 'utf8' });
      expect(sh.status, sh.stderr).toBe(0);
      return sh.stdout.split('\0').slice(0, -1);
    });
    const invite = words.find((w) => w[2] === 'invite')!;
    expect(invite.slice(invite.indexOf('--name'), invite.indexOf('--name') + 2)).toEqual(['--name', 'Ann Lee']);
    const list = words.find((w) => w[2] === 'attempts')!;
    expect(list).toContain('1d ago');
    expect(lines.find((l) => l.includes(' invite '))).toMatch(/--name 'Ann Lee'/);
    const kept = /^The PDF report is kept: (\/.+\.pdf)$/m.exec(run.stderr)?.[1];
    expect(kept, run.stderr).toBeDefined();
    try {
      expect(readFileSync(kept!).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    } finally {
      rmSync(dirname(kept!), { recursive: true, force: true });
    }
    expect(run.stderr).toMatch(/npx assess --sandbox tests list/);
  });
});
