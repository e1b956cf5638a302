// The pager, through a real pseudo-terminal (util-linux `script`): a long table on a terminal
// goes to $PAGER (here a small script that records it ran and what it read); --no-pager,
// ASSESS_PAGER= and a short table print directly; piped output never pages and is unchanged;
// a missing pager or one quit at once changes nothing but how the text arrives.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, runAssess, tempDir, NODE } from '../helpers/cli.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let s: TestSandbox;
const work = tempDir('assess-pager-');
const mark = join(work.dir, 'pager-ran');
const read = join(work.dir, 'pager-read');
const pager = join(work.dir, 'pager.sh');
beforeAll(async () => {
  s = await startTestSandbox();
  writeFileSync(pager, `#!/bin/sh\necho "$@" > '${mark}'\ncat > '${read}'\n`);
  chmodSync(pager, 0o700);
});
afterAll(async () => {
  await s?.close();
  work.cleanup();
});

/** Runs `assess args` with stdout on a pseudo-terminal 10 lines high; gives the exit code and screen. */
function inPty(
  args: string[],
  env: Record<string, string> = {},
  keys?: (child: { stdin: NodeJS.WritableStream }) => Promise<void>,
): Promise<{ code: number | null; screen: string }> {
  rmSync(mark, { force: true });
  rmSync(read, { force: true });
  const cfg = tempDir();
  const quoted = [NODE, BIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  return new Promise((resolve) => {
    const child = spawn('script', ['-qec', quoted, '/dev/null'], {
      // SHELL: script runs the command with it; bash execs a lone command, so the exit code is
      // assess's own (dash would wait in between and answer 130 for a Ctrl-C it saw)
      env: {
        PATH: process.env.PATH!,
        SHELL: '/bin/bash',
        HOME: cfg.dir,
        ASSESS_CONFIG_DIR: cfg.dir,
        TERM: 'xterm',
        NO_COLOR: '1',
        CI: 'true',
        LINES: '10',
        ...s.env,
        ...env,
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let screen = '';
    child.stdout.on('data', (d: Buffer) => (screen += d.toString()));
    child.stderr.on('data', (d: Buffer) => (screen += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      cfg.cleanup();
      resolve({ code, screen });
    });
    // EPIPE: script exited before it read the keys (the test fails on its own terms)
    child.stdin.on('error', () => undefined);
    if (keys) void keys(child).finally(() => child.stdin.end());
    else child.stdin.end();
  });
}

const LONG = ['timezones']; // 26 rows: longer than 10 lines
const SHORT = ['tests', 'list']; // a few rows

describe('pager', () => {
  it('settings get, longer than a 12-row terminal, goes through $PAGER; on 60 rows it does not', async () => {
    const r = await inPty(['settings', 'get', '1001'], { PAGER: pager, LINES: '12' });
    expect(r.code, r.screen).toBe(0);
    expect(existsSync(mark)).toBe(true);
    expect(readFileSync(read, 'utf8')).toMatch(/^testSettings\.testName +Java Backend Developer$/m);
    const tall = await inPty(['settings', 'get', '1001'], { PAGER: pager, LINES: '60' });
    expect(tall.code).toBe(0);
    expect(existsSync(mark)).toBe(false);
  });

  it('a long table on a terminal goes through $PAGER; exit 0', async () => {
    const r = await inPty(LONG, { PAGER: pager });
    expect(r.code).toBe(0);
    expect(existsSync(mark)).toBe(true);
    const paged = readFileSync(read, 'utf8');
    expect(paged).toMatch(/^┌/);
    expect(paged).toContain('│ Id ');
    expect(paged.split('\n').length).toBeGreaterThan(20);
    expect(r.screen).not.toContain('│ Id '); // the table reached the pager, not the screen
  });

  it('ASSESS_PAGER wins over PAGER, with its arguments', async () => {
    const r = await inPty(LONG, { PAGER: '/nonexistent/pager', ASSESS_PAGER: `${pager} --from-assess` });
    expect(r.code).toBe(0);
    expect(readFileSync(mark, 'utf8').trim()).toBe('--from-assess');
  });

  it('a pager command with quotes runs through the shell', async () => {
    const r = await inPty(LONG, { PAGER: `'${pager}' "two words"` });
    expect(r.code).toBe(0);
    expect(readFileSync(mark, 'utf8').trim()).toBe('two words');
  });

  it.each([
    ['--no-pager', [...LONG, '--no-pager'], { PAGER: pager }],
    ['ASSESS_PAGER= (empty)', LONG, { PAGER: pager, ASSESS_PAGER: '' }],
    ['a table shorter than the terminal', SHORT, { PAGER: pager }],
  ])('%s: printed directly, no pager', async (_name, args, env) => {
    const r = await inPty(args, env);
    expect(r.code).toBe(0);
    expect(existsSync(mark)).toBe(false);
    expect(r.screen).toMatch(/│ (Id|Test ID) /);
  });

  it('a pager that does not exist: the table is printed directly, exit 0, no error', async () => {
    const r = await inPty(LONG, { PAGER: join(work.dir, 'no-such-pager') });
    expect(r.code).toBe(0);
    expect(r.screen).toContain('│ Id ');
    expect(r.screen).not.toMatch(/ENOENT|Error|error/);
  });

  it('a pager that quits without reading: exit 0, no EPIPE noise', async () => {
    const r = await inPty(LONG, { PAGER: 'true' });
    expect(r.code).toBe(0);
    expect(r.screen).not.toMatch(/EPIPE|Error|error/);
  });

  it('a pager that fails (PAGER=false): the table is printed directly, with a warning, exit 0', async () => {
    const r = await inPty(LONG, { PAGER: 'false' });
    expect(r.code).toBe(0);
    expect(r.screen).toContain('│ Id ');
    expect(r.screen).toContain("warning: the pager 'false' failed (exit 1); the output follows without it");
  });

  it('Ctrl-C while the pager is open belongs to the pager: no "interrupted", exit 0', async () => {
    const waiting = join(work.dir, 'waiting-pager.sh');
    // ignores Ctrl-C like less, reads everything, then stays until told to go
    const go = join(work.dir, 'go');
    rmSync(go, { force: true });
    writeFileSync(
      waiting,
      `#!/bin/sh\ntrap '' INT\ncat > '${read}'\necho ready > '${mark}'\nwhile [ ! -e '${go}' ]; do sleep 0.1; done\n`,
    );
    chmodSync(waiting, 0o700);
    const keys = async (child: { stdin: NodeJS.WritableStream }) => {
      const until = Date.now() + 25_000; // past it the run has failed on its own terms (30 s kill)
      while (!existsSync(mark) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      child.stdin.write('\u0003');
      await new Promise((r) => setTimeout(r, 700)); // a second press later than the echo window
      child.stdin.write('\u0003');
      await new Promise((r) => setTimeout(r, 300));
      writeFileSync(go, '');
    };
    const r = await inPty(LONG, { PAGER: waiting }, keys);
    expect(r.code).toBe(0);
    expect(r.screen).not.toMatch(/interrupted|cancelled/i);
  });

  it('piped: never a pager, and the same TSV as without one', async () => {
    rmSync(mark, { force: true });
    const withPager = await runAssess(LONG, { env: { ...s.env, PAGER: pager, LINES: '10' } });
    const without = await runAssess(LONG, { env: { ...s.env, LINES: '10' } });
    expect(withPager.code).toBe(0);
    expect(existsSync(mark)).toBe(false);
    expect(withPager.stdout).toBe(without.stdout);
    expect(withPager.stdout.split('\n')[0].split('\t').length).toBeGreaterThan(2);
    expect(withPager.stdout).not.toContain('┌');
  });
});
