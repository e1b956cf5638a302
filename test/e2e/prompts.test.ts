// Questions answered in a real pseudo-terminal (util-linux `script`): one rule everywhere — a
// "no" is exit 0 "Nothing changed.", Ctrl-C is exit 130 without a word about bugs, and a
// confirmation names what it acts on, after the id was checked.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, tempDir, NODE } from '../helpers/cli.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let s: TestSandbox;
let cfg: { dir: string; cleanup: () => void };
beforeAll(async () => {
  s = await startTestSandbox();
  cfg = tempDir();
});
afterAll(async () => {
  await s.close();
  cfg.cleanup();
});

/** Runs `assess args` in a pseudo-terminal; when the screen shows `prompt`, types `keys`. */
function inPty(
  args: string[],
  prompt: RegExp,
  keys: string,
  env: Record<string, string> = s.env,
): Promise<{ code: number | null; screen: string; raw: string }> {
  return inPtySteps(args, [[prompt, keys]], env);
}

/** Each step: when the screen (after the previous step) shows the pattern, type the keys. */
function inPtySteps(
  args: string[],
  steps: Array<[RegExp, string]>,
  env: Record<string, string> = s.env,
): Promise<{ code: number | null; screen: string; raw: string }> {
  const quoted = [NODE, BIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  return new Promise((resolve) => {
    const child = spawn('script', ['-qec', quoted, '/dev/null'], {
      env: { PATH: process.env.PATH!, HOME: cfg.dir, ASSESS_CONFIG_DIR: cfg.dir, TERM: 'xterm', NO_COLOR: '1', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let screen = '';
    let from = 0; // where the screen of the current step starts
    let step = 0;
    const onData = (d: Buffer) => {
      screen += d.toString();
      const next = steps[step];
      if (next && next[0].test(screen.slice(from))) {
        step++;
        from = screen.length;
        child.stdin.write(next[1]);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    // EPIPE: the command ended before it read the keys (the test fails on its own terms)
    child.stdin.on('error', () => undefined);
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      // the terminal wraps long questions and redraws them: read the screen as flat text
      resolve({ code, screen: screen.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '').replace(/\s+/g, ' '), raw: screen });
    });
  });
}

const status = async (id: number) =>
  (
    await s.control<{ invitations: Array<{ testInvitationId: number; status: string }> }>('GET', '/invitations')
  ).invitations.find((i) => i.testInvitationId === id)!.status;

describe('colour on a terminal', () => {
  // chalk's own colour detection is left out of the build (scripts/build.mjs): assess decides
  it('a table is coloured on a terminal, and not with NO_COLOR', async () => {
    const coloured = await inPty(['tests', 'list', '--no-pager'], /$^/, '', { ...s.env, NO_COLOR: '' });
    expect(coloured.code, coloured.screen).toBe(0);
    expect(coloured.screen).toMatch(/Java Backend Developer/);
    // the status in green and the header in bold come from chalk (the borders from cli-table3)
    expect(coloured.raw).toMatch(/\u001b\[32mActive\u001b\[39m/);
    expect(coloured.raw).toMatch(/\u001b\[1mTest ID\u001b\[22m/);
    const plain = await inPty(['tests', 'list', '--no-pager'], /$^/, '');
    expect(plain.screen).toMatch(/Java Backend Developer/);
    expect(plain.raw).not.toMatch(/\u001b\[\d+m/);
  });
});

describe('attempts cancel on a terminal', () => {
  it('names the candidate and the test; "n" → exit 0, Nothing changed., still Pending', async () => {
    const r = await inPty(['attempts', 'cancel', '900004'], /\(y\/N\)/, 'n\r');
    expect(r.screen).toMatch(
      /Cancel the invitation of Dave Diaz, dave@example\.com to "Java Backend Developer" \(900004, Pending\)/,
    );
    expect(r.code, r.screen).toBe(0);
    expect(r.screen).toMatch(/Nothing changed\./);
    expect(await status(900004)).toBe('Pending');
  });

  it('Ctrl-C at the question → exit 130, no "bug", still Pending', async () => {
    const r = await inPty(['attempts', 'cancel', '900004'], /\(y\/N\)/, '\x03');
    expect(r.code, r.screen).toBe(130);
    expect(r.screen).not.toMatch(/bug|error:/);
    expect(await status(900004)).toBe('Pending');
  });

  it('an unknown id fails before any question (exit 4, the id hint)', async () => {
    const r = await inPty(['attempts', 'cancel', '123456789'], /\(y\/N\)/, 'y\r');
    expect(r.code).toBe(4);
    expect(r.screen).not.toMatch(/\(y\/N\)/);
    expect(r.screen).toMatch(/check the id/);
  });
});

describe('settings set on a terminal', () => {
  it('"n" → exit 0, Nothing changed., nothing sent but the read', async () => {
    const before = (await s.requests()).length;
    const r = await inPty(
      ['settings', 'set', '1001', '--set', 'questionSettings.randomQuestions=1'],
      /\(y\/N\)/,
      'n\r',
    );
    expect(r.screen).toMatch(/Replace the settings of test 1001 "Java Backend Developer" with this change\?/);
    expect(r.code, r.screen).toBe(0);
    expect(r.screen).toMatch(/Nothing changed\./);
    expect((await s.requests()).slice(before).map((q) => q.method)).toEqual(['GET']);
  });
});

describe('sandbox reset and auth login on a terminal', () => {
  it('sandbox reset: names the sandbox; "n" → exit 0; Ctrl-C → 130', async () => {
    const no = await inPty(['sandbox', 'reset', '--url', s.sb.baseUrl], /\(y\/N\)/, 'n\r', {});
    expect(no.screen).toMatch(
      new RegExp(`Discard every change of the sandbox at ${s.sb.baseUrl.replace(/[.]/g, '\\.')}`),
    );
    expect(no.code, no.screen).toBe(0);
    expect(no.screen).toMatch(/Nothing changed\./);
    const c = await inPty(['sandbox', 'reset', '--url', s.sb.baseUrl], /\(y\/N\)/, '\x03', {});
    expect(c.code, c.screen).toBe(130);
    expect(c.screen).not.toMatch(/bug|error:/);
  });

  it('auth login: Ctrl-C at the key prompt → exit 130, quiet, nothing stored', async () => {
    const r = await inPty(['auth', 'login', '--base-url', s.sb.baseUrl], /API key/, '\x03', {});
    expect(r.code, r.screen).toBe(130);
    expect(r.screen).not.toMatch(/bug|error:/);
    const list = await inPty(['auth', 'list', '--json'], /$^/, '', {});
    expect(list.screen).not.toMatch(/\*\*\*\*/);
  });
});

describe('missing values are asked for on a terminal', () => {
  it('reattempt without --start/--end/--tz asks for each (checked as typed) and goes on', async () => {
    const r = await inPtySteps(
      ['reattempt', '900004'],
      [
        // asked as questions, each with the example its error gives
        [/Access window start \(--start\)\? e\.g\. now/, 'tomorrowish\r'], // refused by the schema as typed…
        [/'tomorrowish' is not a time/, `${'\x7f'.repeat(11)}now\r`], // …erased and answered again
        [/Access window end \(--end\)\? e\.g\. \+7d/, 'in 7d\r'],
        [/Time zone of the access window \(--tz\)\? e\.g\. Asia\/Kolkata/, 'UTC\r'],
      ],
    );
    expect(r.code, r.screen).toBe(0);
    expect(r.screen).toMatch(/Reattempt|testInvitationId|900004/);
  });

  it('without a terminal the same command names every missing flag at once (exit 2)', async () => {
    const { runAssess } = await import('../helpers/cli.js');
    const r = await runAssess(['reattempt', '900004'], { env: s.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--start: is required.*--end: is required.*--tz: is required/);
  });
});
