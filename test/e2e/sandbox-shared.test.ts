// The shared local sandbox: `assess sandbox start` runs one in the background for the config
// dir, every --sandbox command uses it (two at once: a wait and the simulate that ends it), its
// URLs answer while it runs, a kill -9 leaves a stale pid file that status and start detect,
// and `sandbox stop` ends it cleanly. Without one, --sandbox keeps the embedded sandbox (whose
// state file every command shares) and says how to start a shared one for URLs that outlive it.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sandboxAlive } from '../../src/cli/shared-sandbox.js';
import { BIN, runAssess, tempDir } from '../helpers/cli.js';
import { spawnAssess } from '../helpers/spawn.js';
import { waitFor } from '../helpers/wait.js';

const cfg = tempDir('assess-shared-');
const pids = new Set<number>();
// zombies count as gone: PID 1 of some containers reaps the orphaned sandbox late or never
const alive = sandboxAlive;
afterAll(() => {
  for (const pid of pids) if (alive(pid)) process.kill(pid, 'SIGKILL');
  cfg.cleanup();
});

const run = (args: string[]) => runAssess(args, { configDir: cfg.dir });
type Info = {
  running: boolean;
  pid?: number;
  baseUrl?: string;
  keys?: string[];
  answering?: boolean;
  stateFile?: string;
};
const record = join(cfg.dir, 'sandbox', 'server.json');

async function start(): Promise<Info> {
  const r = await run(['sandbox', 'start', '--json']);
  expect(r.code, r.stderr).toBe(0);
  const info = JSON.parse(r.stdout) as Info;
  pids.add(info.pid!);
  return info;
}

describe('the shared sandbox', () => {
  let info: Info;

  it('start: prints its URL and keys, status sees it answering, a second start reports the same one', async () => {
    const before = await run(['sandbox', 'status', '--json']);
    expect(JSON.parse(before.stdout)).toMatchObject({ running: false });
    expect(before.stderr).toMatch(/assess sandbox start/);

    info = await start();
    expect(info).toMatchObject({ running: true, keys: [expect.stringMatching(/^sk_sandbox_/), expect.any(String)] });
    expect(info.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(alive(info.pid!)).toBe(true);

    const status = await run(['sandbox', 'status', '--json']);
    expect(JSON.parse(status.stdout)).toMatchObject({
      running: true,
      pid: info.pid,
      baseUrl: info.baseUrl,
      answering: true,
    });

    const again = await run(['sandbox', 'start', '--json']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ pid: info.pid, baseUrl: info.baseUrl });
    expect(again.stderr).toMatch(/already running \(pid \d+\)/);
  });

  it('two --sandbox commands at once: `attempts wait` ends when `sandbox simulate` completes the invitation', async () => {
    const wait = spawnAssess(
      ['--sandbox', 'attempts', 'wait', '900004', '--until', 'complete', '--interval', '200ms', '--timeout', '60s'],
      {
        configDir: cfg.dir,
      },
    );
    await waitFor(() => wait.stderr().includes('900004: Pending'), {
      what: 'the first poll of attempts wait',
      timeoutMs: 20_000,
    });
    const banner = wait.stderr().split('\n')[0]!;
    expect(banner).toMatch(`Using the shared sandbox at ${info.baseUrl}`);
    expect(banner.length).toBeLessThanOrEqual(100);
    const sim = await run(['--sandbox', 'sandbox', 'simulate', '900004', 'complete', '--score', '70']);
    expect(sim.code, sim.stderr).toBe(0);
    const done = await wait.done;
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toMatch(/900004\s+Complete\s+reached/);
    expect(done.stderr).toMatch(/Pending → (In Progress → )?Complete|Pending → Complete/);
  });

  it('URLs printed by --sandbox commands answer after the command ended', async () => {
    const inv = await run([
      '--sandbox',
      'invite',
      '1001',
      '--email',
      'ann@example.com',
      '--name',
      'Ann Lee',
      '--json',
      'testInvitationId,testUrl',
    ]);
    expect(inv.code, inv.stderr).toBe(0);
    expect(inv.stderr).not.toMatch(/will not answer/);
    const { testUrl } = JSON.parse(inv.stdout) as { testUrl: string };
    expect(testUrl.startsWith(`${info.baseUrl}/take/`)).toBe(true);
    const page = await fetch(testUrl);
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/Ann Lee/);

    const link = await run([
      '--sandbox',
      'links',
      'create',
      '1001',
      '--name',
      'Walk-in',
      '--type',
      'open',
      '--valid-days',
      '7',
      '--tz',
      '35',
    ]);
    expect(link.code, link.stderr).toBe(0);
    const share = /^shareUrl\t(\S+)$/m.exec(link.stdout)?.[1];
    expect(share?.startsWith(`${info.baseUrl}/link/`)).toBe(true);
    const open = await fetch(share!);
    expect(open.status).toBe(200);
    expect(await open.text()).toMatch(/Walk-in/);
  });

  it('kill -9: status and --sandbox commands detect the stale pid file; start starts a new one on the same state', async () => {
    process.kill(info.pid!, 'SIGKILL');
    await waitFor(() => !alive(info.pid!), { what: 'the killed sandbox to be gone' });

    const status = await run(['sandbox', 'status', '--json']);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ running: false });
    expect(status.stderr).toMatch(
      new RegExp(`shared sandbox \\(pid ${info.pid}\\) is no longer running .*stale pid file was removed`),
    );
    expect(existsSync(record)).toBe(false);

    // a stale record left again: a --sandbox command falls back to the embedded sandbox
    info = await start();
    process.kill(info.pid!, 'SIGKILL');
    await waitFor(() => !alive(info.pid!), { what: 'the killed sandbox to be gone' });
    const list = await run(['--sandbox', 'tests', 'list', '--json', 'testId']);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stderr).toMatch(/no longer running/);
    expect(list.stderr).toMatch(/Using the embedded sandbox/);

    info = await start();
    const found = await run(['--sandbox', 'attempts', 'list', '--from', '30d', '--json', 'testInvitationId']);
    expect(found.stdout).toMatch(/900004/); // completed by simulate above: the same state file as before the crash
  });

  it('stop: ends it cleanly and removes its record; --sandbox goes back to the embedded sandbox', async () => {
    const stop = await run(['sandbox', 'stop']);
    expect(stop.code, stop.stderr).toBe(0);
    expect(stop.stderr).toMatch(`Shared sandbox stopped (pid ${info.pid})`);
    expect(alive(info.pid!)).toBe(false);
    expect(existsSync(record)).toBe(false);

    const again = await run(['sandbox', 'stop']);
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/No shared sandbox is running/);
    const list = await run(['--sandbox', 'tests', 'list', '--json', 'testId']);
    expect(list.stderr).toMatch(/Using the embedded sandbox/);
  });
});

describe('started from a terminal', () => {
  it('a record whose pid now belongs to another process is stale: stop never signals that process', async () => {
    const info = await start();
    process.kill(info.pid!, 'SIGKILL');
    await waitFor(() => !alive(info.pid!), { what: 'the killed sandbox to be gone' });
    // as after a reboot: the pid is reused by an unrelated process
    const other = spawn('sleep', ['60'], { stdio: 'ignore' });
    try {
      const rec = JSON.parse(readFileSync(record, 'utf8')) as { pid: number; processStartedAt?: string };
      expect(rec.processStartedAt).toMatch(/^\d+$/);
      writeFileSync(record, JSON.stringify({ ...rec, pid: other.pid }));
      const stop = await run(['sandbox', 'stop']);
      expect(stop.code, stop.stderr).toBe(0);
      expect(stop.stderr).toMatch(new RegExp(`shared sandbox \\(pid ${other.pid}\\) is no longer running`));
      expect(alive(other.pid!)).toBe(true);
      expect(existsSync(record)).toBe(false);
    } finally {
      other.kill('SIGKILL');
    }
  });

  it('outlives the terminal it was started in (its own session): the pty closes, it still answers', async () => {
    const term = tempDir('assess-shared-pty-');
    try {
      const quoted = [process.execPath, BIN, 'sandbox', 'start'].map((a) => `'${a}'`).join(' ');
      const pty = spawnSync('script', ['-qec', quoted, '/dev/null'], {
        env: { PATH: process.env.PATH!, HOME: term.dir, ASSESS_CONFIG_DIR: term.dir, TERM: 'xterm', NO_COLOR: '1' },
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(pty.status, pty.stdout).toBe(0);
      expect(pty.stdout).toMatch(/Running\s+yes/); // key/value view on a terminal
      const rec = JSON.parse(readFileSync(join(term.dir, 'sandbox', 'server.json'), 'utf8')) as {
        pid: number;
        baseUrl: string;
      };
      pids.add(rec.pid);
      expect((await fetch(`${rec.baseUrl}/_sandbox/clock`)).status).toBe(200);
      expect((await runAssess(['sandbox', 'stop'], { configDir: term.dir })).code).toBe(0);
      expect(alive(rec.pid)).toBe(false);
    } finally {
      term.cleanup();
    }
  });
});

describe('a damaged record', () => {
  it('is stale: status says so and removes it; start then starts one on the same state', async () => {
    const own = tempDir('assess-shared-damaged-');
    try {
      const rec = join(own.dir, 'sandbox', 'server.json');
      mkdirSync(dirname(rec), { recursive: true });
      writeFileSync(rec, 'garbage\n');
      const status = await runAssess(['sandbox', 'status', '--json'], { configDir: own.dir });
      expect(status.code, status.stderr).toBe(0);
      expect(JSON.parse(status.stdout)).toMatchObject({ running: false });
      expect(status.stderr).toMatch(/record was unreadable and was removed/);
      expect(existsSync(rec)).toBe(false);
      writeFileSync(rec, 'garbage\n');
      const r = await runAssess(['sandbox', 'start', '--json', 'pid'], { configDir: own.dir });
      expect(r.code, r.stderr).toBe(0);
      const { pid } = JSON.parse(r.stdout) as { pid: number };
      pids.add(pid);
      expect(r.stderr).toMatch(/record was unreadable and was removed/);
      const stop = await runAssess(['sandbox', 'stop'], { configDir: own.dir });
      expect(stop.code, stop.stderr).toBe(0);
      expect(alive(pid)).toBe(false);
    } finally {
      own.cleanup();
    }
  });
});

describe('start while another process holds the state', () => {
  it('two starts at once: one sandbox, both print it', async () => {
    const both = tempDir('assess-shared-race-');
    try {
      const runs = await Promise.all(
        [1, 2].map(() => runAssess(['sandbox', 'start', '--json', 'pid,baseUrl'], { configDir: both.dir })),
      );
      for (const r of runs) expect(r.code, r.stderr).toBe(0);
      const [a, b] = runs.map((r) => JSON.parse(r.stdout) as { pid: number; baseUrl: string });
      pids.add(a!.pid).add(b!.pid);
      expect(b).toEqual(a);
      expect((await runAssess(['sandbox', 'stop'], { configDir: both.dir })).code).toBe(0);
      expect(alive(a!.pid)).toBe(false);
    } finally {
      both.cleanup();
    }
  });

  it("beside a user's own `sandbox serve` on the same state: it starts, and both serve that state", async () => {
    const other = tempDir('assess-shared-beside-');
    const serve = spawnAssess(
      ['sandbox', 'serve', '--port', '0', '--json', '--state', join(other.dir, 'sandbox', 'state.db')],
      { configDir: other.dir },
    );
    try {
      const own = JSON.parse(await serve.firstLine()) as { baseUrl: string; keys: string[] };
      const r = await runAssess(['sandbox', 'start', '--json', 'pid,baseUrl'], { configDir: other.dir });
      expect(r.code, r.stderr).toBe(0);
      const shared = JSON.parse(r.stdout) as { pid: number; baseUrl: string };
      pids.add(shared.pid);
      const inv = await runAssess(
        ['--sandbox', 'invite', '1001', '--email', 'beside@example.com', '--name', 'B', '--json', 'testInvitationId'],
        { configDir: other.dir },
      );
      expect(inv.code, inv.stderr).toBe(0);
      expect(inv.stderr).toMatch(`Using the shared sandbox at ${shared.baseUrl}`);
      const id = (JSON.parse(inv.stdout) as { testInvitationId: number }).testInvitationId;
      expect((await fetch(`${own.baseUrl}/_sandbox/invitations/${id}`)).status).toBe(200);
      expect((await runAssess(['sandbox', 'stop'], { configDir: other.dir })).code).toBe(0);
    } finally {
      await serve.stop();
      other.cleanup();
    }
  });
});

describe('the embedded sandbox (no shared one running)', () => {
  it('attempts wait ends when another --sandbox command completes the invitation: their embedded sandboxes share the state', async () => {
    const own = tempDir('assess-shared-embedded-wait-');
    try {
      const wait = spawnAssess(
        ['--sandbox', 'attempts', 'wait', '900004', '--until', 'complete', '--interval', '200ms', '--timeout', '60s'],
        { configDir: own.dir },
      );
      await waitFor(() => wait.stderr().includes('900004: Pending'), {
        what: 'the first poll of attempts wait',
        timeoutMs: 20_000,
      });
      expect(wait.stderr()).toMatch(/Using the embedded sandbox/);
      const sim = await runAssess(['--sandbox', 'sandbox', 'simulate', '900004', 'complete', '--score', '70'], {
        configDir: own.dir,
      });
      expect(sim.code, sim.stderr).toBe(0);
      const done = await wait.done;
      expect(done.code, done.stderr).toBe(0);
      expect(done.stdout).toMatch(/900004\s+Complete\s+reached/);
    } finally {
      own.cleanup();
    }
  });

  it('an invitation URL comes with the notice that it dies with the command', async () => {
    const r = await runAssess(['--sandbox', 'invite', '1001', '--email', 'ann@example.com', '--name', 'Ann Lee']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/its URLs will not answer; for live URLs start a shared one: assess sandbox start/);
  });

  it('the banner is one line within 100 columns; -q and ASSESS_QUIET=1 silence it', async () => {
    const r = await runAssess(['--sandbox', 'tests', 'list']);
    const banner = r.stderr.split('\n').filter((l) => l.includes('sandbox'));
    expect(banner).toHaveLength(1);
    expect(banner[0]!.length).toBeLessThanOrEqual(100);
    const quiet = await runAssess(['--sandbox', '-q', 'tests', 'list']);
    expect(quiet.code).toBe(0);
    expect(quiet.stdout).toBe(r.stdout);
    expect(quiet.stderr).toBe('');
    const env = await runAssess(['--sandbox', 'tests', 'list'], { env: { ASSESS_QUIET: '1' } });
    expect(env.stderr).toBe('');
  });
});

describe('an unusable state file in the config dir', () => {
  it('--sandbox and sandbox start exit 2 (a bad file) with the refusal, the file untouched; no record is left', async () => {
    const bad = tempDir('assess-shared-badstate-');
    try {
      const state = join(bad.dir, 'sandbox', 'state.db');
      mkdirSync(dirname(state), { recursive: true });
      writeFileSync(state, 'garbage\n'.repeat(100));
      const list = await runAssess(['--sandbox', 'tests', 'list'], { configDir: bad.dir });
      expect(list.code).toBe(2);
      expect(list.stderr).toContain(`cannot use the sandbox state ${state}: file is not a database`);
      const start = await runAssess(['sandbox', 'start'], { configDir: bad.dir });
      expect(start.code).toBe(2);
      expect(start.stderr).toContain(`the shared sandbox did not start: cannot use the sandbox state ${state}`);
      expect(existsSync(join(bad.dir, 'sandbox', 'server.json'))).toBe(false);
      expect(readFileSync(state, 'utf8')).toBe('garbage\n'.repeat(100));
    } finally {
      bad.cleanup();
    }
  });
});

describe('sandbox start --rate-limit', () => {
  it('starts the shared sandbox with the limit (its counters say so); a bad spec exits 2 and starts nothing', async () => {
    const limited = tempDir('assess-shared-limit-');
    try {
      const bad = await runAssess(['sandbox', 'start', '--rate-limit', 'fast'], { configDir: limited.dir });
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(/--rate-limit/);
      expect(existsSync(join(limited.dir, 'sandbox', 'server.json'))).toBe(false);
      const r = await runAssess(['sandbox', 'start', '--rate-limit', '5/s,burst=2', '--json', 'pid,baseUrl'], {
        configDir: limited.dir,
      });
      expect(r.code, r.stderr).toBe(0);
      const info = JSON.parse(r.stdout) as { pid: number; baseUrl: string };
      pids.add(info.pid);
      const counters = (await (await fetch(`${info.baseUrl}/_sandbox/rate-limit`)).json()) as {
        perSecond: number;
        burst: number;
      };
      expect(counters).toMatchObject({ perSecond: 5, burst: 2 });
      expect((await runAssess(['sandbox', 'stop'], { configDir: limited.dir })).code).toBe(0);
    } finally {
      limited.cleanup();
    }
  });
});
