// Output that could leak or mislead: a password in the base URL is never shown (errors, --debug,
// config), and control characters from the service never reach the terminal raw (TTY tables,
// TSV, warnings, --csv and --json on a terminal); piped JSON stays exact.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, BIN, runAssess, tempDir, NODE } from '../helpers/cli.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { spawnAssess } from '../helpers/spawn.js';
import { waitFor } from '../helpers/wait.js';

let s: TestSandbox;
const work = tempDir('assess-output-');
beforeAll(async () => {
  s = await startTestSandbox();
});
afterAll(async () => {
  await s?.close();
  work.cleanup();
});

const SECRET = 'hunter2pass';

describe('base URL passwords are masked', () => {
  it('in a network error and in --debug', async () => {
    const r = await runAssess(['tests', 'list', '--debug', '--timeout', '2'], {
      env: { ASSESS_BASE_URL: `http://bob:${SECRET}@127.0.0.1:1`, ASSESS_API_KEY: 'k'.repeat(32) },
    });
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/http:\/\/\*\*\*\*@127\.0\.0\.1:1\/v3\/tests/);
    expect(r.stdout + r.stderr).not.toContain(SECRET);
  });

  it('in an answer from the service, with --debug', async () => {
    const url = s.sb.baseUrl.replace('http://', `http://bob:${SECRET}@`);
    const r = await runAssess(['attempts', 'list', '--state', 'completed', '--from', '30d', '--to', '+1d', '--debug'], {
      env: { ...s.env, ASSESS_BASE_URL: url },
    });
    expect(r.stderr).toMatch(/--> POST http:\/\/\*\*\*\*@127\.0\.0\.1/);
    expect(r.stdout + r.stderr).not.toContain(SECRET);
  });

  it('auth status shows the base URL masked', async () => {
    const url = s.sb.baseUrl.replace('http://', `http://bob:${SECRET}@`);
    const r = await runAssess(['auth', 'status', '--json'], { env: { ...s.env, ASSESS_BASE_URL: url } });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).baseUrl).toMatch(/^http:\/\/\*\*\*\*@127\.0\.0\.1:\d+$/);
    expect(r.stdout + r.stderr).not.toContain(SECRET);
  });

  it('config set / get / list base-url', async () => {
    const cfg = tempDir();
    const url = `https://bob:${SECRET}@api.example.com`;
    const set = await runAssess(['config', 'set', 'base-url', url], { configDir: cfg.dir });
    expect(set.code).toBe(0);
    expect(set.stderr).toContain('https://****@api.example.com');
    const get = await runAssess(['config', 'get', 'base-url'], { configDir: cfg.dir });
    expect(get.stdout.trim()).toBe('https://****@api.example.com');
    const list = await runAssess(['config', 'list', '--json'], { configDir: cfg.dir });
    expect(list.stdout).toContain('https://****@api.example.com');
    for (const r of [set, get, list]) expect(r.stdout + r.stderr).not.toContain(SECRET);
    cfg.cleanup();
  });
});

const EVIL = 'Eve\u001b]0;pwned\u0007\u001b[2J\u009b31m\u202eLee';

/** Runs the built binary under a pseudo-terminal (script(1)); resolves with what the terminal got. */
function onTty(args: string[], env: Record<string, string>): Promise<string> {
  const cfg = tempDir();
  const cmd = [NODE, BIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  // Asynchronous: the sandbox answering the CLI runs in this very process.
  const child = spawn('script', ['-qfec', cmd, '/dev/null'], {
    env: { ...baseEnv(cfg.dir), ...env, TERM: 'xterm' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d) => (out += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  return new Promise((resolve) =>
    child.on('close', () => {
      clearTimeout(timer);
      cfg.cleanup();
      resolve(out);
    }),
  );
}

describe('control characters from the service are escaped', () => {
  let id = 0;
  beforeAll(async () => {
    const inv = await s.service<{ testInvitationId: number }>('/v3/tests/1001/invite', {
      email: 'eve@escape.example',
      name: EVIL,
    });
    id = inv.testInvitationId;
    await s.control('POST', `/invitations/${id}/simulate`, { to: 'complete', score: 70 });
  });
  const list = ['attempts', 'list', '--state', 'completed', '--from', '30d', '--to', '+1d'];

  it('TSV (piped): visible escapes, no ESC, BEL, CSI or bidi override', async () => {
    const r = await runAssess(list, { env: s.env });
    expect(r.code).toBe(0);
    const row = r.stdout.split('\n').find((l) => l.startsWith(`${id}\t`))!;
    expect(row).toContain('Eve\\x1b]0;pwned\\x07\\x1b[2J\\x9b31m\\u202eLee');
    expect(r.stdout).not.toMatch(/[\u001b\u0007\u009b\u202e]/);
    const rep = await runAssess(['report', String(id)], { env: s.env });
    expect(rep.stdout).toContain('Eve\\x1b]0;pwned');
    expect(rep.stdout).not.toMatch(/[\u001b\u0007\u009b\u202e]/);
  });

  it('a TTY table (attempts list, report): escaped', async () => {
    for (const args of [list, ['report', String(id)]]) {
      // wide enough that the whole escaped name is shown rather than cut with …
      const out = await onTty(args, { ...s.env, COLUMNS: '250' });
      expect(out).toContain('Eve\\x1b]0;pwned\\x07');
      expect(out).not.toContain('\u001b]0;pwned');
      expect(out).not.toContain('\u001b[2J');
    }
  });

  it('a TTY --csv and --json (attempts list): escaped; the JSON still reads back exact', async () => {
    const csv = await onTty([...list, '--csv'], s.env);
    expect(csv).toContain('Eve\\x1b]0;pwned\\x07\\x1b[2J\\x9b31m\\u202eLee');
    expect(csv).not.toMatch(/[\u0007\u009b\u202e]|\u001b\]0;pwned|\u001b\[2J/);
    const json = await onTty([...list, '--json'], s.env);
    expect(json).toContain('Eve\\u001b]0;pwned\\u0007\\u001b[2J\\u009b31m\\u202eLee');
    expect(json).not.toMatch(/[\u0007\u009b\u202e]|\u001b\]0;pwned|\u001b\[2J/);
    const rows = JSON.parse(json.replace(/\r\n/g, '\n')) as Array<{ testInvitationId: number; name: string }>;
    expect(rows.find((x) => x.testInvitationId === id)!.name).toBe(EVIL);
  });

  it('JSON stays exact', async () => {
    const r = await runAssess([...list, '--json'], { env: s.env });
    const rows = JSON.parse(r.stdout) as Array<{ testInvitationId: number; name: string }>;
    expect(rows.find((x) => x.testInvitationId === id)!.name).toBe(EVIL);
  });

  it('listener warnings (piped stdout stays exact JSON)', async () => {
    const l = spawnAssess(
      [
        'callbacks',
        'listen',
        '--port',
        '0',
        '--print-url',
        '--forward-to',
        'http://127.0.0.1:1/x',
        '--forward-retries',
        '0',
        '--no-inbox',
      ],
      { env: s.env },
    );
    const [url] = await l.waitForLines(1);
    const body = {
      CandidateEmailId: `x${EVIL}@e.example`,
      AttemptedOn: null,
      AttemptedOnUtc: null,
      TotalScore: 10,
      CandidateScore: 5,
      ReportPDFUrl: null,
      TestInvitationId: 7,
      Status: `Complete${EVIL}`,
      PerformanceCategory: null,
    };
    await fetch(url!, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    await waitFor(() => /could not forward/.test(l.stderr()), { timeoutMs: 15_000, what: 'the forward warning' });
    await l.stop();
    expect(l.stderr(), l.stderr()).toMatch(/CompleteEve\\(x1b|u001b)\]0;pwned/);
    expect(l.stderr()).not.toMatch(/[\u001b\u0007\u009b\u202e]/);
    // piped stdout is the body as JSON: exact
    expect(JSON.parse(l.lines()[1]!).Status).toBe(`Complete${EVIL}`);
  });
});
