// docs/commands.md is generated from the commander program; this fails when a command's help
// changed without `npm run docs`. It runs the generator against the BUILT binary (build first).
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

function check(): { code: number; output: string } {
  try {
    const out = execFileSync(process.execPath, [join(ROOT, 'scripts/gen-docs.mjs'), '--check'], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: 'pipe',
    });
    return { code: 0, output: out };
  } catch (err) {
    const e = err as { status: number; stdout: string; stderr: string };
    return { code: e.status, output: `${e.stdout}${e.stderr}` };
  }
}

describe('docs/commands.md', () => {
  it('matches the help of every command of the built program (regenerate with `npm run docs`)', () => {
    const r = check();
    expect(r.output).toContain('up to date');
    expect(r.code).toBe(0);
  });
});
