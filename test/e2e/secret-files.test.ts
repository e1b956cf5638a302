// The files that hold the key. --api-key-file on a FIFO nobody writes to
// waited in a blocking read that ignored Ctrl-C; a config.json linked to /dev/zero was read until
// the process aborted; a key file or config other users can read was used without a word.
// Now: a FIFO is read in the background (Ctrl-C → 130), devices and oversized files are refused
// naming the file (exit 2), and a file open to others gets one warning, as ssh gives.
import { execFileSync } from 'node:child_process';
import { chmodSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAssess, tempDir } from '../helpers/cli.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { spawnAssess } from '../helpers/spawn.js';
import { waitFor } from '../helpers/wait.js';

let s: TestSandbox;
const work = tempDir('assess-secret-files-');
beforeAll(async () => {
  s = await startTestSandbox();
});
afterAll(async () => {
  await s?.close();
  work.cleanup();
});

/** The sandbox's URLs without ASSESS_API_KEY: the key comes from the file under test. */
const env = () => ({ ...s.env, ASSESS_API_KEY: undefined });
let n = 0;
const fresh = (name: string) => join(work.dir, `${++n}-${name}`);

/**
 * Whether the process is at the FIFO (Linux /proc): it holds it open, or one of its threads waits
 * in open() for a writer (wchan), as a blocking read does.
 */
function waitsOnFifo(pid: number, fifo: string): boolean {
  try {
    const fds = readdirSync(`/proc/${pid}/fd`).map((f) => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${f}`);
      } catch {
        return '';
      }
    });
    if (fds.includes(fifo)) return true;
    return readdirSync(`/proc/${pid}/task`).some((t) =>
      readFileSync(`/proc/${pid}/task/${t}/wchan`, 'utf8').includes('wait_for_partner'),
    );
  } catch {
    return false;
  }
}

describe('--api-key-file on a FIFO', () => {
  it('Ctrl-C while nobody writes to it: exit 130 at once', async () => {
    const fifo = fresh('key.fifo');
    execFileSync('mkfifo', [fifo]);
    const run = spawnAssess(['--api-key-file', fifo, 'tests', 'list'], { env: env() });
    await waitFor(() => waitsOnFifo(run.child.pid!, fifo), { what: 'the CLI waiting on the FIFO' });
    run.child.kill('SIGINT');
    // a blocked read would never see the signal: give it a bounded while, then fail
    const killer = setTimeout(() => run.child.kill('SIGKILL'), 10_000);
    const r = await run.done;
    clearTimeout(killer);
    expect(r.signal).toBeNull();
    expect(r.code).toBe(130);
  });

  it('a FIFO with a writer (as `<(pass show key)`) still works', async () => {
    const fifo = fresh('key2.fifo');
    execFileSync('mkfifo', [fifo]);
    const run = spawnAssess(['--api-key-file', fifo, 'tests', 'list', '--json', 'testId'], { env: env() });
    const w = await open(fifo, 'w');
    await w.writeFile(`${s.env.ASSESS_API_KEY}\n`);
    await w.close();
    const r = await run.done;
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).length).toBeGreaterThan(0);
  });
});

describe('special and oversized files are refused, naming the file (exit 2)', () => {
  it('--api-key-file /dev/zero', async () => {
    const r = await runAssess(['--api-key-file', '/dev/zero', 'tests', 'list'], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^error: --api-key-file: \/dev\/zero is a character device, not a regular file\n.*--key-stdin/,
    );
  });

  it('--api-key-file of 1 MB', async () => {
    const big = fresh('big.key');
    writeFileSync(big, 'k'.repeat(1 << 20), { mode: 0o600 });
    const r = await runAssess(['--api-key-file', big, 'tests', 'list'], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: --api-key-file: .*big\.key is larger than 64 KiB/);
  });

  it('config.json → /dev/zero: exit 2 naming the file, no abort', async () => {
    const cfg = tempDir();
    try {
      symlinkSync('/dev/zero', join(cfg.dir, 'config.json'));
      const r = await runAssess(['tests', 'list'], { configDir: cfg.dir, env: env() });
      expect(r.signal).toBeNull();
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(
        `error: config file: ${join(cfg.dir, 'config.json')} is a character device, not a regular file`,
      );
      expect(r.stderr).toMatch(/mv .*config\.json .*config\.json\.bak/);
      expect(r.stderr).not.toMatch(/bug|heap|Abort/i);
    } finally {
      cfg.cleanup();
    }
  });

  it('a config.json of 2 MB: exit 2 naming the file', async () => {
    const cfg = tempDir();
    try {
      writeFileSync(join(cfg.dir, 'config.json'), JSON.stringify({ profiles: {}, pad: 'x'.repeat(2 << 20) }));
      const r = await runAssess(['tests', 'list'], { configDir: cfg.dir, env: env() });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/config file: .*config\.json is larger than 1 MiB/);
    } finally {
      cfg.cleanup();
    }
  });
});

describe('a key file or config other users can read: used, with one warning', () => {
  it('--api-key-file of mode 0644 warns once; 0600 does not', async () => {
    const open644 = fresh('open.key');
    writeFileSync(open644, `${s.env.ASSESS_API_KEY}\n`);
    chmodSync(open644, 0o644);
    const r = await runAssess(['--api-key-file', open644, 'tests', 'list', '--json', 'testId'], { env: env() });
    expect(r.code).toBe(0);
    const warnings = r.stderr.split('\n').filter((l) => l.startsWith('warning:'));
    expect(warnings).toEqual([
      `warning: ${open644} holds an API key and other users can read it (mode 0644); restrict it: chmod 600 ${open644}`,
    ]);

    const closed = fresh('closed.key');
    writeFileSync(closed, `${s.env.ASSESS_API_KEY}\n`, { mode: 0o600 });
    chmodSync(closed, 0o600);
    const q = await runAssess(['--api-key-file', closed, 'tests', 'list', '--json', 'testId'], { env: env() });
    expect(q.code).toBe(0);
    expect(q.stderr).toBe('');
  });

  it('a config.json with a key, mode 0644, warns once per run; without a key it does not', async () => {
    const cfg = tempDir();
    try {
      const path = join(cfg.dir, 'config.json');
      writeFileSync(
        path,
        JSON.stringify({ profiles: { default: { apiKey: s.env.ASSESS_API_KEY, baseUrl: s.env.ASSESS_BASE_URL } } }),
      );
      chmodSync(path, 0o644);
      const r = await runAssess(['tests', 'list', '--json', 'testId'], { configDir: cfg.dir, env: env() });
      expect(r.code).toBe(0);
      const warnings = r.stderr.split('\n').filter((l) => l.startsWith('warning:'));
      expect(warnings).toEqual([
        `warning: ${path} holds an API key and other users can read it (mode 0644); restrict it: chmod 600 ${path}`,
      ]);

      writeFileSync(path, JSON.stringify({ profiles: { default: { baseUrl: s.env.ASSESS_BASE_URL } } }));
      chmodSync(path, 0o644);
      const q = await runAssess(['tests', 'list', '--json', 'testId'], {
        configDir: cfg.dir,
        env: { ...env(), ASSESS_API_KEY: s.env.ASSESS_API_KEY },
      });
      expect(q.code).toBe(0);
      expect(q.stderr).not.toMatch(/warning/);
    } finally {
      cfg.cleanup();
    }
  });
});
