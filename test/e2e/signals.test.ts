// SIGHUP — a closed terminal, a dropped SSH session — stops a run as SIGTERM does: the run winds
// down (journal flushed, results written, locks released) and exits 129. Each test waits for a
// line or a file the process writes, then signals: never a sleep before the signal.
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childPids } from '../helpers/procs.js';
import { csvOf, doneItems, ndjson } from '../helpers/bulk.js';
import { storeOf } from '../helpers/store.js';
import { baseEnv, BIN, NODE, runAssess, tempDir } from '../helpers/cli.js';
import { completionBody } from '../helpers/completion-body.js';
import { startServer } from '../helpers/http-server.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { spawnAssess } from '../helpers/spawn.js';
import { waitFor } from '../helpers/wait.js';

let slow: TestSandbox;
const work = tempDir('assess-signals-');
beforeAll(async () => {
  slow = await startTestSandbox({ latencyMs: 60 }); // 60 rows one at a time: ~4 s, signalled after 2
});
afterAll(async () => {
  await slow?.close();
  work.cleanup();
});

const alive = (pid: number) => existsSync(`/proc/${pid}`);
const post = (url: string, id: number) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(completionBody(id)),
  });

describe('SIGHUP stops like SIGTERM, exit 129', () => {
  it('a bulk invite: results written, the journal unlocked, a re-run sends no row twice', async () => {
    const tag = 'hup.signals.example';
    const csv = join(work.dir, 'hup.csv');
    writeFileSync(csv, csvOf(Array.from({ length: 60 }, (_, i) => [`r${i}@${tag}`, `R ${i}`])));
    const cfg = join(work.dir, 'hup-config');
    const store = storeOf(cfg);
    const run = spawnAssess(['invite', '1001', '--from-csv', csv, '--concurrency', '1'], {
      env: slow.env,
      configDir: cfg,
    });
    await waitFor(() => (existsSync(store) && doneItems(store).length >= 2) || run.child.exitCode !== null, {
      timeoutMs: 20_000,
      what: 'two rows in the journal',
    });
    run.child.kill('SIGHUP');
    const r = await run.done;
    expect(r.code, r.stderr).toBe(129);
    expect(r.stderr.match(/not sent yet/g) ?? [], r.stderr).toHaveLength(1);
    const results = ndjson<{ outcome: string }>(`${csv}.results.ndjson`);
    expect(results.length).toBeGreaterThan(0);
    const again = await runAssess(['invite', '1001', '--from-csv', csv], {
      env: slow.env,
      configDir: cfg,
      timeoutMs: 60_000,
    });
    expect(again.code, again.stderr).toBe(0);
    const sent = (await slow.requests()).filter(
      (q) => q.method === 'POST' && JSON.stringify(q.body ?? '').includes(tag),
    );
    expect(sent).toHaveLength(60); // every row once: the one in flight at the signal was finished, not re-sent
  });

  it('callbacks listen: it stops by itself, what it stored is kept, the store is free for the next listener', async () => {
    const store = join(work.dir, 'hup-store.db');
    const l = spawnAssess(['callbacks', 'listen', '--port', '0', '--print-url', '--store', store]);
    const url = await l.firstLine();
    expect((await post(url, 7001)).status).toBe(200);
    const r = await l.stop('SIGHUP');
    expect(r).toEqual({ code: 129, signal: null });
    expect(l.stderr()).toMatch(/Stopped; 1 notification received/);
    expect(await storedEmails(store)).toContain('c7001@listen.example');
    const next = spawnAssess(['callbacks', 'listen', '--port', '0', '--print-url', '--store', store]);
    await next.firstLine();
    expect((await next.stop('SIGINT')).code).toBe(0);
  });

  it('sandbox serve: the state is kept and serves again', async () => {
    const state = join(work.dir, 'hup-sandbox.db');
    const serve = () => spawnAssess(['sandbox', 'serve', '--port', '0', '--json', '--state', state]);
    const p = serve();
    const info = JSON.parse(await p.firstLine()) as { baseUrl: string; keys: string[] };
    const env = { ASSESS_BASE_URL: info.baseUrl, ASSESS_API_KEY: info.keys[0]! };
    const inv = await runAssess(
      ['invite', '1001', '--email', 'hup@signals.example', '--name', 'Hup', '--json', 'testInvitationId'],
      { env },
    );
    expect(inv.code, inv.stderr).toBe(0);
    const id = String((JSON.parse(inv.stdout) as { testInvitationId: number }).testInvitationId);
    expect(await p.stop('SIGHUP')).toEqual({ code: 129, signal: null });
    expect(p.stderr()).toMatch(/Sandbox stopped; state saved\./);
    // the same state serves again and holds the invitation
    const again = serve();
    const back = JSON.parse(await again.firstLine()) as { baseUrl: string };
    const moved = await runAssess(['sandbox', 'simulate', id, 'start', '--url', back.baseUrl]);
    expect(moved.code, moved.stderr).toBe(0);
    expect((await again.stop('SIGTERM')).code).toBe(143);
  });

  it('any other command, here one waiting for the service: stops at once, exit 129, nothing more sent', async () => {
    let arrived = 0;
    const api = await startServer(() => void arrived++); // never answers
    try {
      const env = { ASSESS_BASE_URL: api.url, ASSESS_API_KEY: 'k-0123456789abcdef' };
      const run = spawnAssess(['tests', 'list'], { env });
      await waitFor(() => arrived === 1 || run.child.exitCode !== null, { what: 'the request' });
      const r = await run.stop('SIGHUP');
      expect(r, run.stderr()).toEqual({ code: 129, signal: null });
      expect(run.stderr()).toBe('interrupted\n');
      expect(arrived).toBe(1);
    } finally {
      await api.close();
    }
  });

  it('a terminal that closes (script(1) holds the pty and is killed): the listener hangs up cleanly', async () => {
    // the listener is the session leader of a pseudo-terminal; killing the program holding its
    // other end hangs the terminal up, and the kernel sends SIGHUP (writes to it then fail: EIO)
    const store = join(work.dir, 'pty-store.db');
    const env = { ...baseEnv(join(work.dir, 'pty-config')), SHELL: '/bin/sh', NODE, BIN, STORE: store };
    const cmd = 'exec "$NODE" "$BIN" callbacks listen --port 0 --print-url --store "$STORE"';
    const script = spawn('script', ['-qfc', cmd, '/dev/null'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    script.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    try {
      const url = await waitFor(() => /^(http:\/\/127\.0\.0\.1:\d+\/hook)\r?$/m.exec(out)?.[1], {
        timeoutMs: 20_000,
        what: `the listener's URL on the terminal; got ${JSON.stringify(out)}`,
      });
      expect((await post(url, 7002)).status).toBe(200);
      const [listener] = childPids(script.pid!);
      expect(listener).toBeDefined();
      script.kill('SIGKILL');
      await waitFor(() => !alive(listener!), { timeoutMs: 20_000, what: 'the listener to end' });
      expect(await storedEmails(store)).toContain('c7002@listen.example');
      // the store is free: a new listener takes it at once
      const next = spawnAssess(['callbacks', 'listen', '--port', '0', '--print-url', '--store', store]);
      await next.firstLine();
      expect((await next.stop('SIGINT')).code).toBe(0);
    } finally {
      script.kill('SIGKILL');
    }
  });
});

/** The candidates' e-mails of the notifications a store holds (`callbacks inbox --json`). */
async function storedEmails(store: string): Promise<string> {
  const r = await runAssess(['callbacks', 'inbox', '--store', store, '--json']);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
}
