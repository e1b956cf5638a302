// The user's files. No output may be an input or another output (also through symlinks and hard
// links); one run per journal (a lock SQLite holds); a place the CLI cannot write is reported as
// that place and its cause (exit 2); files are private.
import { spawn, spawnSync } from 'node:child_process';
import { linkSync, mkdirSync, openSync, readFileSync, statSync, symlinkSync, writeFileSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, BIN, ROOT, runAssess, tempDir, NODE } from '../helpers/cli.js';
import { csvOf, doneItems } from '../helpers/bulk.js';
import { query, storeOf } from '../helpers/store.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { spawnAssess } from '../helpers/spawn.js';
import { waitFor } from '../helpers/wait.js';

let s: TestSandbox;
const work = tempDir('assess-files-');
beforeAll(async () => {
  s = await startTestSandbox({ latencyMs: 5 });
});
afterAll(async () => {
  await s?.close();
  work.cleanup();
});

let n = 0;
/** A fresh directory with a CSV of `rows` candidates. */
function cohort(rows = 3): { dir: string; csv: string; text: string } {
  const dir = join(work.dir, `c${++n}`);
  mkdirSync(dir);
  const csv = join(dir, 'c.csv');
  const text = csvOf(Array.from({ length: rows }, (_, i) => [`p${i}@c${n}.files.example`, `P ${i}`]));
  writeFileSync(csv, text);
  return { dir, csv, text };
}
const invites = async (tag: string) =>
  (await s.requests()).filter((r) => r.method === 'POST' && JSON.stringify(r.body ?? '').includes(tag)).length;
const mode = (p: string) => statSync(p).mode & 0o777;

describe('an output is never an input or another output', () => {
  it.each([
    ['--results c.csv', (c: string) => ['--results', c]],
    ['--journal c.csv', (c: string) => ['--journal', c]],
    ['--results through a symlink', (c: string) => (symlinkSync(c, `${c}.link`), ['--results', `${c}.link`])],
    ['--journal through a hard link', (c: string) => (linkSync(c, `${c}.hard`), ['--journal', `${c}.hard`])],
    ['--journal and --results the same file', (c: string) => ['--journal', `${c}.out`, '--results', `${c}.out`]],
  ])('%s: exit 2, the CSV untouched, nothing sent', async (_name, flags) => {
    const { csv, text } = cohort();
    const r = await runAssess(['invite', '1001', '--csv', csv, ...flags(csv)], { env: s.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/is the same file as|must differ from --journal/);
    expect(readFileSync(csv, 'utf8')).toBe(text);
    expect(await invites(`c${n}.files.example`)).toBe(0);
  });

  it('report export: a --journal that is the summary is refused', async () => {
    const out = join(work.dir, 'exp-same');
    const r = await runAssess(
      ['report', 'export', '--from', '1d', '--out', out, '--journal', join(out, 'summary.csv')],
      { env: s.env },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--journal: .*summary\.csv is the same file as the summary/);
  });
});

describe('one run per journal', () => {
  const holder = (cfg: string) =>
    query<{ held_by: string }>(storeOf(cfg), 'SELECT held_by FROM run WHERE held_by IS NOT NULL');

  it('a second run on a journal in use exits 2 naming the holder; every candidate is invited once', async () => {
    // a slow service, so the first run is surely still running when the second starts
    const slow = await startTestSandbox({ latencyMs: 100 });
    try {
      const { csv, dir } = cohort(60);
      const first = spawnAssess(['invite', '1001', '--csv', csv, '--concurrency', '1'], {
        env: slow.env,
        configDir: dir,
      });
      await waitFor(() => holder(dir).length > 0 || first.child.exitCode !== null, {
        timeoutMs: 20_000,
        what: 'the first run to take the lock',
      });
      const worker = first.child.pid!; // the run is the started process
      const second = await runAssess(['invite', '1001', '--csv', csv], { env: slow.env, configDir: dir });
      const a = await first.done;
      expect(a.code).toBe(0);
      expect(second.code).toBe(2);
      expect(second.stderr).toContain(
        `the journal of this run (in ${storeOf(dir)}) is in use by another assess run (pid ${worker} since `,
      );
      const sent = (await slow.requests()).filter(
        (r) => r.method === 'POST' && JSON.stringify(r.body ?? '').includes(`c${n}.files.example`),
      );
      expect(sent).toHaveLength(60);
      expect(holder(dir)).toEqual([]);
    } finally {
      await slow.close();
    }
  });

  it('a run killed with SIGKILL leaves no lock: the next run goes on at once', async () => {
    const slow = await startTestSandbox({ latencyMs: 100 });
    try {
      const { csv, dir } = cohort(30);
      const first = spawnAssess(['invite', '1001', '--csv', csv, '--concurrency', '1'], {
        env: slow.env,
        configDir: dir,
      });
      await waitFor(() => doneItems(storeOf(dir)).length >= 2 || first.child.exitCode !== null, {
        timeoutMs: 20_000,
        what: 'the first run to be under way',
      });
      first.child.kill('SIGKILL');
      await first.done;
      expect(holder(dir)).toHaveLength(1); // its note stays; the lock itself went with the process
      const r = await runAssess(['invite', '1001', '--csv', csv], { env: slow.env, configDir: dir, timeoutMs: 60_000 });
      expect(r.code, r.stderr).toBe(0);
      expect(doneItems(storeOf(dir))).toHaveLength(30);
    } finally {
      await slow.close();
    }
  });
});

describe('a place the CLI cannot write is named with its cause', () => {
  it('--journal in a directory that refuses us: EACCES named, exit 2, nothing sent', async () => {
    const { csv } = cohort();
    const r = await runAssess(['invite', '1001', '--csv', csv, '--journal', '/sys/assess-j.ndjson'], { env: s.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot create the journal \/sys\/assess-j\.ndjson: permission denied \(EACCES\)/);
    expect(r.stderr).not.toMatch(/bug|network/i);
    expect(await invites(`c${n}.files.example`)).toBe(0);
  });

  it('--journal on a device (/dev/full): not a file the next run could read, exit 2, nothing sent', async () => {
    const { csv } = cohort(3);
    const r = await runAssess(['invite', '1001', '--csv', csv, '--journal', '/dev/full', '--concurrency', '1'], {
      env: s.env,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--journal: /dev/full is not a regular file');
    expect(r.stderr).not.toMatch(/bug|network/i);
    expect(await invites(`c${n}.files.example`)).toBe(0);
  });

  it('--results that is a directory: EISDIR, exit 2 before anything is sent', async () => {
    const { csv, dir } = cohort();
    const r = await runAssess(['invite', '1001', '--csv', csv, '--results', dir], { env: s.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--results: .* is a directory \(EISDIR\)/);
    expect(await invites(`c${n}.files.example`)).toBe(0);
  });

  it('--results in a missing directory below a file: ENOTDIR/ENOENT named, exit 2', async () => {
    const { csv } = cohort();
    const r = await runAssess(['invite', '1001', '--csv', csv, '--results', join(csv, 'sub', 'r.ndjson')], {
      env: s.env,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot write the results .*r\.ndjson: .*\((ENOTDIR|ENOENT)\)/);
  });

  it('report export --out where it cannot be created: EACCES, exit 2', async () => {
    const r = await runAssess(['report', 'export', '--from', '1d', '--out', '/sys/assess-out'], { env: s.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /--out: cannot create \/sys\/assess-out \((EACCES\): permission denied|EPERM\): operation not permitted)/,
    );
  });

  // Node's recursive mkdir spins for ever there (mkdir answers ENOENT while /proc exists), deaf to
  // signals: should a run not end in 20 s, it is killed, and the test fails on its exit.
  const bounded = async (args: string[]) => {
    const run = spawnAssess(args, { env: s.env });
    const late = setTimeout(() => run.child.kill('SIGKILL'), 20_000);
    const r = await run.done;
    clearTimeout(late);
    return r;
  };

  it('report export --out or --journal under /proc: exit 2 naming the path, never a hang', async () => {
    const out = await bounded(['report', 'export', '--from', '2d', '--to', 'now', '--out', '/proc/assess-test-x']);
    expect(out.signal).toBeNull();
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('--out: cannot create /proc/assess-test-x (ENOENT): no such file or directory');

    const journal = '/proc/self/x/j.ndjson';
    const j = await bounded([
      'report',
      'export',
      '--from',
      '2d',
      '--to',
      'now',
      '--out',
      join(work.dir, 'proc-j'),
      '--journal',
      journal,
    ]);
    expect(j.signal).toBeNull();
    expect(j.code).toBe(2);
    expect(j.stderr).toContain(`cannot create the journal ${journal}: no such file or directory (ENOENT)`);
  });

  it('report --pdf -o into a refusing directory, and -o - onto a full disk: exit 2, the cause named', async () => {
    const inv = await s.service<{ testInvitationId: number }>('/v3/tests/1001/invite', {
      email: 'pdf@files.example',
      name: 'Pdf Person',
    });
    await s.control('POST', `/invitations/${inv.testInvitationId}/simulate`, { to: 'complete', score: 50 });
    const r = await runAssess(['report', String(inv.testInvitationId), '--pdf', '-o', '/sys/r.pdf'], { env: s.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot write the PDF to \/sys\/r\.pdf: permission denied \(EACCES\)/);

    const full = openSync('/dev/full', 'w');
    const cfg = tempDir();
    const child = spawn(NODE, [BIN, 'report', String(inv.testInvitationId), '--pdf', '-o', '-'], {
      env: { ...baseEnv(cfg.dir), ...s.env } as NodeJS.ProcessEnv,
      cwd: ROOT,
      stdio: ['ignore', full, 'pipe'],
    });
    closeSync(full);
    let err = '';
    child.stderr!.setEncoding('utf8').on('data', (d) => (err += d));
    const code = await new Promise<number | null>((res) => child.on('close', (c) => res(c)));
    cfg.cleanup();
    expect(code).toBe(2);
    expect(err).toMatch(/cannot write (the PDF )?to standard output: no space left on the device \(ENOSPC\)/);
    expect(err).not.toMatch(/at writeSync|bug|network/);
  });
});

describe('written files are private', () => {
  it('the store (journals) and results 0600; export directory 0700, summary and PDFs 0600', async () => {
    const { csv, dir } = cohort(2);
    const r = await runAssess(['invite', '1001', '--csv', csv], { env: s.env, configDir: dir });
    expect(r.code).toBe(0);
    expect(mode(storeOf(dir))).toBe(0o600);
    expect(mode(join(dir, 'store'))).toBe(0o700);
    expect(mode(`${csv}.results.ndjson`)).toBe(0o600);
    const own = join(dir, 'own.db');
    expect((await runAssess(['invite', '1001', '--csv', csv, '--journal', own], { env: s.env })).code).toBe(0);
    expect(mode(own)).toBe(0o600);

    const out = join(work.dir, 'private', 'exp');
    const e = await runAssess(['report', 'export', '--from', '1d', '--to', '+1h', '--out', out, '--pdf'], {
      env: s.env,
      timeoutMs: 90_000,
    });
    expect(e.code).toBe(0);
    expect(mode(out)).toBe(0o700);
    expect(mode(join(work.dir, 'private'))).toBe(0o700);
    for (const f of ['summary.csv', 'export.results.ndjson']) expect(mode(join(out, f))).toBe(0o600);
    const pdfs = (await import('node:fs')).readdirSync(out).filter((f) => f.endsWith('.pdf'));
    expect(pdfs.length).toBeGreaterThan(0);
    for (const f of pdfs) expect(mode(join(out, f))).toBe(0o600);
  });
});

describe('a working directory that was removed', () => {
  /** The command run from a directory removed just before (the shell's `cd d; rmdir ../d`). */
  const fromRemovedDir = (args: string[]) => {
    const dir = join(work.dir, `gone${++n}`);
    mkdirSync(dir);
    const env = { ...baseEnv(join(work.dir, `gone-config${n}`)), ...s.env, D: dir, NODE, BIN };
    return spawnSync('sh', ['-c', 'cd "$D" && rmdir "$D" && exec "$NODE" "$BIN" "$@"', 'sh', ...args], {
      env,
      encoding: 'utf8',
      timeout: 30_000,
    });
  };

  it.each([
    [['invite', '1001', '--from-csv', 'c.csv']],
    [['report', '900001', '--pdf']],
    [['report', 'export', '--from', '7d', '--out', 'out']],
    [['sandbox', 'serve', '--port', '0', '--state', 's.json']],
  ])('assess %j: exit 2, the reason and what to do, in two lines', (args) => {
    const r = fromRemovedDir(args);
    expect({ code: r.status, stdout: r.stdout }).toEqual({ code: 2, stdout: '' });
    expect(r.stderr.replace(/^Using the embedded sandbox.*\n/, '')).toBe(
      'error: the current directory no longer exists (it was removed or moved after the shell went there)\n' +
        '  cd somewhere that exists, then run the command again\n',
    );
  });

  it('a command that needs no directory still runs', () => {
    const r = fromRemovedDir(['--sandbox', 'tests', 'get', '1001', '--json', 'testId']);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ testId: 1001 });
  });
});
