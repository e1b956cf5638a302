// The e2e harness: spawns the BUILT binary (bin/assess.cjs → dist/) with a temp config dir,
// CI=true and NO_COLOR=1, and returns stdout, stderr and the exit code.
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');
export const BIN = join(ROOT, 'bin/assess.cjs');
/** The Node that runs the built binary: this one, or another (.ci/run runs the e2e suite on Node 22, 24 and 26). */
export const NODE = process.env.ASSESS_TEST_NODE || process.execPath;

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env?: Record<string, string | undefined>;
  stdin?: string | Buffer;
  configDir?: string;
  cwd?: string;
  timeoutMs?: number;
  /** The Node to run the binary with (default NODE). */
  node?: string;
  /** In-process only (runInProcess): stdout and stderr claim to be terminals. */
  tty?: boolean;
}

// Temp dirs not cleaned up by their test (a failed assertion before its cleanup, or a test that
// keeps one for its whole file) are removed after each test file (test/setup-temp-dirs.ts).
const leftOver = new Set<string>();
export function removeLeftOverTempDirs(): void {
  for (const dir of leftOver) rmSync(dir, { recursive: true, force: true });
  leftOver.clear();
}

/** A fresh config dir, removed by the returned cleanup (or after the test file). */
export function tempDir(prefix = 'assess-test-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  leftOver.add(dir);
  return {
    dir,
    cleanup: () => {
      rmSync(dir, { recursive: true, force: true });
      leftOver.delete(dir);
    },
  };
}

export function baseEnv(configDir: string): Record<string, string> {
  const env: Record<string, string> = {};
  // Only what a child needs: no inherited ASSESS_* or proxy settings from the developer's shell.
  for (const k of ['PATH', 'HOME', 'TMPDIR', 'LANG', 'SystemRoot']) if (process.env[k]) env[k] = process.env[k]!;
  // TZ: what a run prints for people is in its zone; a test that wants another one says so
  return { ...env, ASSESS_CONFIG_DIR: configDir, CI: 'true', NO_COLOR: '1', TZ: 'UTC' };
}

export function runAssess(args: string[], opts: RunOptions = {}): Promise<RunResult> {
  // a config dir of this run's own is removed when it ends (thousands of runs leave no litter)
  const own = opts.configDir === undefined ? tempDir() : undefined;
  const configDir = opts.configDir ?? own!.dir;
  const env = { ...baseEnv(configDir), ...opts.env };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete env[k];
  return new Promise((resolvePromise, reject) => {
    const child = spawn(opts.node ?? NODE, [BIN, ...args], {
      env: env as NodeJS.ProcessEnv,
      cwd: opts.cwd ?? ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
    // a hung run is killed: generous, as a busy machine can take minutes over a bulk run
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 300_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      own?.cleanup();
      const leak = leakedSecret(args, env as Record<string, string>, stdout + stderr);
      if (leak)
        return reject(
          new Error(`the API key (${leak.slice(0, 6)}…) appeared in the output of: assess ${args.join(' ')}`),
        );
      resolvePromise({ code, signal, stdout, stderr });
    });
    // a child may exit (a usage error) before it reads its input: EPIPE on its stdin is no failure
    child.stdin.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE') reject(err);
    });
    if (opts.stdin !== undefined) child.stdin.end(opts.stdin);
    else child.stdin.end();
  });
}

/**
 * Every run is checked: the key given through the environment must never appear in stdout or
 * stderr. `sandbox serve`, `start` and `status` are the exceptions — printing the public seed keys is their job.
 */
export function leakedSecret(args: string[], env: Record<string, string>, output: string): string | undefined {
  const i = args.indexOf('sandbox');
  if (i >= 0 && ['serve', 'start', 'status'].includes(args[i + 1]!)) return undefined;
  const key = env.ASSESS_API_KEY;
  return key && key.length >= 8 && output.includes(key) ? key : undefined;
}

/** Makes `dir` (if need be) with an executable `assess` in it that runs the built binary: for PATH. */
export function assessShim(dir: string): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'assess'), `#!/bin/sh\nexec '${NODE}' '${BIN}' "$@"\n`);
  chmodSync(join(dir, 'assess'), 0o755);
  return dir;
}
