// An official Node binary of another architecture, for the standalone executables: the npm
// registry's node-<platform>-<arch> package of an exact version (it unpacks to bin/node; no
// install script runs), kept between runs in ~/.cache/assess-ci (or $ASSESS_CI_CACHE) beside the
// Nodes of `.ci/node`. It is not run here (it may not run on this machine): its version is the
// one asked for because the package's version is Node's.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export function registryNode(target, version) {
  const cache =
    process.env.ASSESS_CI_CACHE || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'assess-ci');
  const dir = join(cache, `node-${version}-${target}`);
  const bin = join(dir, 'bin', 'node');
  if (existsSync(bin)) return bin;
  mkdirSync(cache, { recursive: true });
  const tmp = mkdtempSync(join(cache, `.node-${version}-${target}.`));
  try {
    execFileSync('npm', ['pack', '--silent', `node-${target}@${version}`], {
      cwd: tmp,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const tgz = readdirSync(tmp).find((f) => f.endsWith('.tgz'));
    if (!tgz) throw new Error(`npm pack node-${target}@${version} wrote no tarball`);
    execFileSync('tar', ['xzf', tgz], { cwd: tmp });
    rmSync(dir, { recursive: true, force: true });
    renameSync(join(tmp, 'package'), dir);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return bin;
}
