// Commands run in-process with in-memory streams: the context is injected, nothing is spawned.
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/program.js';
import { tempDir } from '../helpers/cli.js';
import { memoryProcess } from '../helpers/memory-io.js';

const cleanups: Array<() => void> = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

function env() {
  const t = tempDir();
  cleanups.push(t.cleanup);
  return { ASSESS_CONFIG_DIR: t.dir, CI: 'true', NO_COLOR: '1' };
}

/** Counts how often a command reads one of the process's streams (Node builds them on first read). */
function watch(p: ReturnType<typeof memoryProcess>, stream: 'stdin' | 'stderr') {
  let reads = 0;
  const value = p[stream];
  Object.defineProperty(p, stream, {
    get: () => {
      reads++;
      return value;
    },
  });
  return { p, reads: () => reads };
}

describe('in-process commands', () => {
  it('config set then list --json, all in memory', async () => {
    const e = env();
    const set = memoryProcess(e);
    expect(await runCli(['config', 'set', 'output', 'ndjson'], set)).toBe(0);
    expect(set.out()).toBe('');
    expect(set.err()).toMatch(/Set output = ndjson/);
    const list = memoryProcess(e);
    expect(await runCli(['config', 'list', '--json', 'key,value'], list)).toBe(0);
    expect(JSON.parse(list.out())).toContainEqual({ key: 'output', value: 'ndjson' });
  });

  it('the profile output preference applies when no format flag is given', async () => {
    const e = env();
    await runCli(['config', 'set', 'output', 'json'], memoryProcess(e));
    const list = memoryProcess(e);
    await runCli(['config', 'list'], list);
    expect(Array.isArray(JSON.parse(list.out()))).toBe(true);
  });

  it('standard input is made only for a command that reads it (Node builds process.stdin on first use)', async () => {
    const e = env();
    const watched = (p: ReturnType<typeof memoryProcess>) => watch(p, 'stdin');
    const list = watched(memoryProcess(e));
    expect(await runCli(['config', 'list'], list.p)).toBe(0);
    expect(list.reads()).toBe(0);
    const auth = watched(memoryProcess(e));
    expect(await runCli(['auth', 'status'], auth.p)).toBe(3);
    expect(auth.reads()).toBe(0);
    const bad = watched(memoryProcess(e));
    expect(await runCli(['tests', 'get', 'abc'], bad.p)).toBe(2);
    expect(bad.reads()).toBe(0);
    const piped = watched(memoryProcess(e, { stdin: 'email,name\nann@example.com,Ann Lee\n' }));
    expect(await runCli(['invite', '1001', '--from-csv', '-', '--dry-run'], piped.p)).toBe(0);
    expect(piped.reads()).toBeGreaterThan(0);
    expect(piped.p.err()).toMatch(/Dry run of standard input: 1 row,/);
  });

  it('standard error is made only when written to, or asked whether it is a terminal (on a pipe Node loads node:net for it)', async () => {
    const watched = (p: ReturnType<typeof memoryProcess>) => watch(p, 'stderr');
    // CI: nothing asks whether stderr is a terminal (no questions are asked there)
    const list = watched(memoryProcess({ ...env(), CI: 'true' }));
    expect(await runCli(['config', 'list'], list.p)).toBe(0);
    expect(list.reads()).toBe(0);
    const bad = watched(memoryProcess({ ...env(), CI: 'true' }));
    expect(await runCli(['tests', 'get', 'abc'], bad.p)).toBe(2);
    expect(bad.reads()).toBeGreaterThan(0);
    expect(bad.p.err()).toMatch(/<testId>: must be a positive integer id/);
  });

  it('two output formats at once is a usage error', async () => {
    const p = memoryProcess(env());
    expect(await runCli(['config', 'list', '--json', '--csv'], p)).toBe(2);
    expect(p.err()).toMatch(/cannot be used together/);
  });

  it('--json with an unknown field lists the valid ones (exit 2)', async () => {
    const p = memoryProcess(env());
    expect(await runCli(['config', 'list', '--json', 'nope'], p)).toBe(2);
    expect(p.err()).toMatch(
      /valid fields \(table heading\): profile, key \(Key\), value \(Value\), description \(Description\)/,
    );
  });

  it('a bad --timeout names the flag and an example', async () => {
    const p = memoryProcess(env());
    expect(await runCli(['config', 'list', '--timeout', 'abc'], p)).toBe(2);
    expect(p.err()).toMatch(/--timeout: .*e\.g\. --timeout 60/);
  });
});
