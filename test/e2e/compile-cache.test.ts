// Node's compile cache (src/main.ts) only ever costs or saves time: a corrupted, truncated,
// foreign or unwritable cache never changes an answer or an exit code, and never crashes or
// hangs the CLI. Run on the Node the e2e suite runs the binary on.
import {
  chmodSync,
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAssess, tempDir, type RunResult } from '../helpers/cli.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { seededRandom } from '../../src/sandbox/fault-spec.js';

const t = tempDir('assess-compile-cache-');
let sandbox: TestSandbox;

/** The commands whose answers must not change: a request, a usage error, a local command. */
const LINES = [
  ['tests', 'get', '1001', '--json'],
  ['tests', 'get', 'abc'],
  ['config', 'list'],
];

beforeAll(async () => {
  sandbox = await startTestSandbox();
});

afterAll(async () => {
  await sandbox?.close();
  t.cleanup();
});

async function run(line: string[], cacheDir: string, env: Record<string, string> = {}): Promise<RunResult> {
  return runAssess(line, {
    env: { ...sandbox.env, NODE_COMPILE_CACHE: cacheDir, ...env },
    // a hang is killed (runAssess's bound) and fails the comparison (code null)
  });
}

/** What a run answers, and how it ended. */
const answer = (r: RunResult) => ({ code: r.code, signal: r.signal, stdout: r.stdout, stderr: r.stderr });

/** Every cache file Node wrote under `dir`. */
function cacheFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(p);
    }
  };
  walk(dir);
  return out;
}

function copyDir(from: string, to: string): void {
  rmSync(to, { recursive: true, force: true });
  mkdirSync(to, { recursive: true });
  for (const f of cacheFiles(from)) {
    const target = join(to, f.slice(from.length + 1));
    mkdirSync(join(target, '..'), { recursive: true });
    copyFileSync(f, target);
  }
}

const baseline = new Map<string, ReturnType<typeof answer>>();
const CLEAN = () => join(t.dir, 'clean'); // filled by the first group below

describe("Node's compile cache", () => {
  const clean = join(t.dir, 'clean');

  beforeAll(async () => {
    for (const line of LINES) baseline.set(line.join(' '), answer(await run(line, clean)));
    // a second run takes what the first wrote
    for (const line of LINES) expect(answer(await run(line, clean))).toEqual(baseline.get(line.join(' ')));
  });

  it('is written by a run, in a directory of its own for this Node', () => {
    const files = cacheFiles(clean);
    expect(files.length).toBeGreaterThan(0);
    expect(files.some((f) => statSync(f).size > 10_000)).toBe(true); // the program's entry
    expect(baseline.get('tests get 1001 --json')!.code).toBe(0);
    expect(baseline.get('tests get abc')!.code).toBe(2);
    expect(baseline.get('config list')!.code).toBe(0);
  });

  it('--debug says whether the cache is on', async () => {
    const r = await run(['config', 'list', '--debug'], clean);
    expect(r.stderr).toMatch(/^\[debug\] compile cache: (enabled|already_enabled) \(.+\)$/m);
    const off = await run(['config', 'list', '--debug'], clean, { NODE_DISABLE_COMPILE_CACHE: '1' });
    expect(off.stderr).toMatch(/^\[debug\] compile cache: disabled/m);
    expect(off.stdout).toBe(r.stdout);
  });

  it.each([1, 2, 3, 4, 5, 6])('bits flipped in every cache file (seed %i) change no answer', async (seed) => {
    const dir = join(t.dir, `flipped-${seed}`);
    copyDir(clean, dir);
    const random = seededRandom(seed);
    for (const f of cacheFiles(dir)) {
      const bytes = readFileSync(f);
      // a few flips in the header, a few anywhere in the payload
      for (let i = 0; i < 3; i++)
        bytes[Math.floor(random() * Math.min(64, bytes.length))] ^= 1 << Math.floor(random() * 8);
      for (let i = 0; i < 8; i++) bytes[Math.floor(random() * bytes.length)] ^= 1 << Math.floor(random() * 8);
      writeFileSync(f, bytes);
    }
    for (const line of LINES)
      expect(answer(await run(line, dir)), `seed ${seed}: assess ${line.join(' ')}`).toEqual(
        baseline.get(line.join(' ')),
      );
    // and the run after, with whatever Node rewrote
    for (const line of LINES)
      expect(answer(await run(line, dir)), `seed ${seed}, again: assess ${line.join(' ')}`).toEqual(
        baseline.get(line.join(' ')),
      );
  });

  it.each([1, 2, 3])('truncated cache files (seed %i) change no answer', async (seed) => {
    const dir = join(t.dir, `truncated-${seed}`);
    copyDir(clean, dir);
    const random = seededRandom(100 + seed);
    for (const f of cacheFiles(dir)) {
      const bytes = readFileSync(f);
      writeFileSync(f, bytes.subarray(0, Math.floor(random() * bytes.length)));
    }
    for (const line of LINES)
      expect(answer(await run(line, dir)), `seed ${seed}: assess ${line.join(' ')}`).toEqual(
        baseline.get(line.join(' ')),
      );
  });

  it("a foreign cache (every entry holding another file's cache) changes no answer", async () => {
    const dir = join(t.dir, 'foreign');
    copyDir(clean, dir);
    const files = cacheFiles(dir).sort((a, b) => statSync(b).size - statSync(a).size);
    const contents = files.map((f) => readFileSync(f));
    files.forEach((f, i) => writeFileSync(f, contents[(i + 1) % contents.length]!));
    for (const line of LINES)
      expect(answer(await run(line, dir)), `assess ${line.join(' ')}`).toEqual(baseline.get(line.join(' ')));
  });

  it('an unwritable cache directory, or HOME and TMPDIR that cannot be written, change no answer', async () => {
    const file = join(t.dir, 'a-file');
    writeFileSync(file, '');
    const readOnly = join(t.dir, 'read-only');
    copyDir(clean, readOnly);
    for (const f of [...cacheFiles(readOnly), readOnly]) chmodSync(f, 0o500);
    for (const line of LINES) {
      const want = baseline.get(line.join(' '));
      expect(answer(await run(line, join(file, 'cache'))), `under a file: assess ${line.join(' ')}`).toEqual(want);
      expect(answer(await run(line, readOnly)), `read-only: assess ${line.join(' ')}`).toEqual(want);
      // the default place (no NODE_COMPILE_CACHE): under HOME, which cannot be made here
      const r = await runAssess(line, {
        env: { ...sandbox.env, HOME: file, TMPDIR: join(file, 'tmp') },
      });
      expect(answer(r), `HOME and TMPDIR unwritable: assess ${line.join(' ')}`).toEqual(want);
    }
  });
});

describe('where the compile cache goes by default', () => {
  /** A run with no NODE_COMPILE_CACHE: HOME, XDG_CACHE_HOME and TMPDIR of the test's choosing. */
  const runAt = (line: string[], env: Record<string, string | undefined>) =>
    runAssess([...line, '--debug'], {
      env: { ...sandbox.env, NODE_COMPILE_CACHE: undefined, XDG_CACHE_HOME: undefined, ...env },
      timeoutMs: 30_000,
    });
  const said = (r: RunResult) => /^\[debug\] compile cache: (.*)$/m.exec(r.stderr)?.[1];

  it('is ~/.cache/assess/compile-cache, made 0700, never the shared $TMPDIR/node-compile-cache', async () => {
    const home = join(t.dir, 'home-default');
    const tmp = join(t.dir, 'tmp-default');
    mkdirSync(home);
    mkdirSync(tmp);
    const r = await runAt(['config', 'list'], { HOME: home, TMPDIR: tmp });
    const dir = join(home, '.cache', 'assess', 'compile-cache');
    expect(said(r)).toBe(`enabled (${dir})`);
    expect(lstatSync(dir).mode & 0o777).toBe(0o700);
    expect(cacheFiles(dir).length).toBeGreaterThan(0);
    expect(existsSync(join(tmp, 'node-compile-cache'))).toBe(false);
  });

  it('follows XDG_CACHE_HOME; NODE_COMPILE_CACHE still wins', async () => {
    const xdg = join(t.dir, 'xdg');
    const r = await runAt(['config', 'list'], { HOME: join(t.dir, 'no-home'), XDG_CACHE_HOME: xdg });
    expect(said(r)).toBe(`enabled (${join(xdg, 'assess', 'compile-cache')})`);
    const chosen = join(t.dir, 'chosen');
    const c = await runAt(['config', 'list'], { XDG_CACHE_HOME: xdg, NODE_COMPILE_CACHE: chosen });
    expect(said(c)).toMatch(new RegExp(`^already_enabled \\(${chosen.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  });

  it('a directory others may change (mode 0755, a symlink) is skipped: a FIFO planted there hangs nothing', async () => {
    // what another user could do to a shared place: the cache's entries replaced by FIFOs
    const home = join(t.dir, 'home-open');
    const dir = join(home, '.cache', 'assess', 'compile-cache');
    copyDir(CLEAN(), dir);
    for (const f of cacheFiles(dir)) {
      rmSync(f);
      execFileSync('mkfifo', [f]);
    }
    chmodSync(dir, 0o755);
    const want = baseline.get('config list')!;
    const r = await runAt(['config', 'list'], { HOME: home });
    expect(r.code, r.stderr).toBe(want.code);
    expect(r.stdout).toBe(want.stdout);
    expect(said(r)).toBe(`skipped: ${dir} has mode 0755, not 0700`);
    // a symlink where the directory should be (to a directory of ours with the FIFOs)
    const linked = join(t.dir, 'home-link');
    mkdirSync(join(linked, '.cache', 'assess'), { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700);
    symlinkSync(dir, join(linked, '.cache', 'assess', 'compile-cache'));
    const l = await runAt(['config', 'list'], { HOME: linked });
    expect(l.stdout).toBe(want.stdout);
    expect(said(l)).toBe(`skipped: ${join(linked, '.cache', 'assess', 'compile-cache')} is a symbolic link`);
  });
});
