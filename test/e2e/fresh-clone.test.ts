// The README's install path from a clone: `npm ci`, then `npm pack`, then `npm install -g` of the
// tarball (package-install.test.ts packs and installs with the development tools present). Here the
// step people skip: `npm pack` in a clone where `npm ci` was never run stops in one line that says
// what to run, with no stack trace and no tarball. And the README's block names the commands in
// that order, with the tarball npm pack writes for this version.
import { execFile } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, tempDir } from '../helpers/cli.js';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
const work = tempDir('assess-fresh-clone-');
afterAll(() => work.cleanup());

/** npm's environment without what would point it at this project (as package-install.test.ts). */
function npmEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false' };
  for (const k of Object.keys(env))
    if (/^npm_(package_|lifecycle_|config_prefix$|config_global$)/i.test(k)) delete env[k];
  return env;
}

describe('a fresh clone', () => {
  it('npm pack before npm ci: one line naming npm ci, no stack trace, no tarball', async () => {
    for (const f of [
      'package.json',
      'package-lock.json',
      'LICENSE',
      'README.md',
      'CHANGELOG.md',
      'bin',
      'src',
      'scripts',
      'docs',
    ])
      cpSync(join(ROOT, f), join(work.dir, f), { recursive: true });
    const r = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      execFile('npm', ['pack'], { cwd: work.dir, env: npmEnv() }, (err, _stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stderr }),
      );
    });
    expect(r.code).not.toBe(0);
    const ours = r.stderr.split('\n').filter((l) => !/^npm (error|warn|notice) |^> /.test(l) && l.trim());
    expect(ours).toEqual([
      'npm pack: esbuild is not installed: run `npm ci` first (it installs the tools the build uses), then `npm ' +
        'pack` again',
    ]);
    expect(r.stderr).not.toMatch(/^\s+at /m);
    expect(readdirSync(work.dir).filter((f) => f.endsWith('.tgz'))).toEqual([]);
    expect(existsSync(join(work.dir, 'dist'))).toBe(false);
  });

  it("the README's install block: npm ci, npm pack, then the tarball npm pack writes", () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Installing'), readme.indexOf('## Using it'));
    const block = /```sh\n([\s\S]*?)```/.exec(section)![1]!;
    const commands = block
      .split('\n')
      .map((l) => l.replace(/\s+#.*$/, '').trim())
      .filter(Boolean);
    expect(commands).toEqual(['npm ci', 'npm pack', `npm install -g ./${pkg.name}-${pkg.version}.tgz`]);
  });
});
