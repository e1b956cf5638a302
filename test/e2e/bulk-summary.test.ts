// The output flags on bulk commands: `--json [fields]`, `--query`, `--csv` and
// `--ndjson` print the run's summary object like any command's (an unknown field is exit 2
// before anything is sent), never ignored; and bulk invite on a terminal shows each
// candidate's test URL in a table (a real pseudo-terminal).
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, runAssess, tempDir } from '../helpers/cli.js';
import { csvOf } from '../helpers/bulk.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let s: TestSandbox;
const work = tempDir('assess-bulk-summary-');
beforeAll(async () => {
  s = await startTestSandbox();
});
afterAll(async () => {
  await s?.close();
  work.cleanup();
});

// one config dir: the export journal in its store says which summary is ours
const run = (args: string[]) =>
  runAssess(args, { env: s.env, cwd: work.dir, configDir: join(work.dir, 'config'), timeoutMs: 60_000 });
const serviceRequests = async () =>
  (await s.control<{ requests: Array<{ path: string }> }>('GET', '/requests')).requests.filter((r) =>
    r.path.startsWith('/v3/'),
  ).length;
let n = 0;
const cohort = (rows: number) => {
  const file = join(work.dir, `cohort-${++n}.csv`);
  writeFileSync(file, csvOf(Array.from({ length: rows }, (_, i) => [`c${n}-${i}@summary.example`, `Candidate ${i}`])));
  return file;
};

describe('invite --from-csv: the output flags apply to the summary', () => {
  it('--query done prints the number; --json done,failed only those fields', async () => {
    const q = await run(['invite', '1001', '--from-csv', cohort(2), '--query', 'done']);
    expect(q.code, q.stderr).toBe(0);
    expect(q.stdout).toBe('2\n');
    const j = await run(['invite', '1001', '--from-csv', cohort(3), '--json', 'done,failed']);
    expect(j.code, j.stderr).toBe(0);
    expect(JSON.parse(j.stdout)).toEqual({ done: 3, failed: 0 });
  });

  it('--csv prints a header and one row; --ndjson one line', async () => {
    const c = await run(['invite', '1001', '--from-csv', cohort(1), '--csv']);
    expect(c.code, c.stderr).toBe(0);
    const [head, row, end] = c.stdout.split('\r\n');
    expect(head).toBe('what,done,skipped,failed,interrupted,perSecond,throttled,pace,emailed,results,journal');
    expect(row).toMatch(/^Invitations from .*,1,0,0,false,/);
    expect(end).toBe('');
    const nd = await run(['invite', '1001', '--from-csv', cohort(1), '--ndjson']);
    expect(nd.stdout.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(nd.stdout)).toMatchObject({ done: 1, failed: 0, interrupted: false });
  });

  it('an unknown --json field is exit 2 naming the valid ones, and nothing is sent', async () => {
    const before = await serviceRequests();
    const r = await run(['invite', '1001', '--from-csv', cohort(2), '--json', 'nope']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--json: unknown field 'nope'/);
    expect(r.stderr).toMatch(/done.*failed/);
    expect(await serviceRequests()).toBe(before);
  });

  it('--dry-run --json prints what would be sent', async () => {
    const r = await run(['invite', '1001', '--from-csv', cohort(2), '--dry-run', '--json', 'valid,wouldSend']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ valid: 2, wouldSend: 2 });
  });
});

describe('report export: the output flags apply to the summary', () => {
  it('--query skipped, --json done,failed, --csv and --ndjson each print the summary', async () => {
    const out = join(work.dir, 'export');
    const base = ['report', 'export', '--from', '30d', '--to', 'now', '--out', out];
    const first = await run([...base, '--json', 'done,failed']);
    expect(first.code, first.stderr).toBe(0);
    const { done, failed } = JSON.parse(first.stdout);
    expect(done).toBeGreaterThan(0);
    expect(failed).toBe(0);
    const q = await run([...base, '--query', 'skipped']);
    expect(q.code, q.stderr).toBe(0);
    expect(q.stdout).toBe(`${done}\n`);
    const c = await run([...base, '--csv']);
    expect(c.stdout.split('\r\n')[0]).toBe(
      'what,done,skipped,failed,interrupted,perSecond,throttled,pace,summary,sections,skills,results,journal',
    );
    const nd = await run([...base, '--ndjson']);
    expect(JSON.parse(nd.stdout)).toMatchObject({ done: 0, skipped: done, summary: join(out, 'summary.csv') });
    const bad = await run([...base, '--json', 'nope']);
    expect(bad.code).toBe(2);
  });
});

/** `assess args` with stdout and stderr on a pseudo-terminal `cols` wide (the sandbox runs in this process: async). */
function onTerminal(cols: number, args: string): Promise<string> {
  const cfg = tempDir();
  return new Promise((resolve) => {
    const child = spawn(
      'script',
      ['-qec', `stty cols ${cols} rows 40; ${process.execPath} ${BIN} ${args}`, '/dev/null'],
      {
        env: {
          PATH: process.env.PATH,
          SHELL: '/bin/bash',
          HOME: cfg.dir,
          ASSESS_CONFIG_DIR: cfg.dir,
          NO_COLOR: '1',
          TERM: 'xterm',
          CI: 'true',
          ...s.env,
        },
        cwd: work.dir,
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    let screen = '';
    child.stdout.on('data', (d: Buffer) => (screen += d.toString()));
    child.stdin.end();
    child.on('close', () => {
      cfg.cleanup();
      // what stays on the screen: a progress bar's line is cleared (ESC[2K) before what follows it
      resolve(screen.replace(/\r/g, '').replace(/^.*\u001b\[2K/gm, ''));
    });
  });
}

describe('bulk invite on a terminal', () => {
  const cohortFor = (cols: number) => {
    const file = join(work.dir, `tty-${cols}.csv`);
    writeFileSync(
      file,
      csvOf([
        [`ann.${cols}@summary.example`, 'Ann Lee'],
        [`wanjiru.kamau-otieno.${cols}@university-of-nairobi.example`, 'Wanjiru Kamau'],
      ]),
    );
    return file;
  };
  const urlsOn = (screen: string) => screen.match(/http:\/\/127\.0\.0\.1:\d+\/take\/\S+/g) ?? [];

  it.each([100, 120])('%i columns: a table of each candidate (e-mail whole), invitation and URL', async (cols) => {
    const screen = await onTerminal(cols, `invite 1001 --from-csv ${cohortFor(cols)}`);
    expect(urlsOn(screen), screen).toHaveLength(2);
    expect(screen).toMatch(/│ E-mail +(│.*)?│ Invitation +(│.*)?│ URL +│/);
    expect(screen).toContain(`│ ann.${cols}@summary.example `);
    const table = screen.split('\n').filter((l) => /^[┌│├└]/.test(l));
    expect(table.length).toBe(6);
    expect(table.every((l) => l.length <= cols)).toBe(true);
    expect(screen).toMatch(/: 2 invited in /);
  });

  it.each([60, 80])('%i columns: too narrow for the table, each candidate on its own lines', async (cols) => {
    const screen = await onTerminal(cols, `invite 1001 --from-csv ${cohortFor(cols)}`);
    expect(urlsOn(screen), screen).toHaveLength(2);
    expect(screen).toMatch(
      new RegExp(
        `^ann\\.${cols}@summary\\.example \\(Ann Lee\\) {2}line 2, invitation \\d+, invited\\n ` +
          `{2}http://127\\.0\\.0\\.1:\\d+/take/\\S+$`,
        'm',
      ),
    );
    expect(screen).not.toMatch(/[┌│]/);
  });
});
